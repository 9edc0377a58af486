// What an Apache Pulsar standalone run is made of, as plain data: the standalone.conf it reads (once as the broker's
// ServiceConfiguration and once as the embedded bookie's ServerConfiguration), the log4j2 configuration that sends
// its log to one file, the JVM flags of the distribution's `bin/pulsar` launcher and the PulsarStandaloneStarter
// arguments. No I/O: apache-pulsar.ts writes and runs what these functions return.
import path from "node:path";
import { ErrorCode, NereusError } from "@nereus/core";

/** The ports and directories of one standalone run. */
export interface StandaloneLayout {
  /** Binary-protocol port (brokerServicePort). */
  readonly brokerPort: number;
  /** HTTP admin port (webServicePort). */
  readonly webPort: number;
  /** The run directory: standalone.conf, log4j2.xml and logs/ live here. */
  readonly runDir: string;
  /** Data directory: RocksDB metadata under `metadata/`, the bookie's journal and ledgers under `bookkeeper/`. */
  readonly dataDir: string;
}

/** The main class of the standalone (broker + one bookie + RocksDB metadata in one JVM). */
export const STANDALONE_MAIN_CLASS = "org.apache.pulsar.PulsarStandaloneStarter";

/** The cluster the standalone creates (with tenant `public` and namespace `public/default`). */
const STANDALONE_CLUSTER = "standalone";

/**
 * standalone.conf of a single-bookie, loopback-only standalone whose bookie syncs its journal before a write is
 * acknowledged (`journalSyncData=true`, BookKeeper's default, set explicitly because the distribution's file turns
 * it off). `metadataStoreUrl` is empty: the starter then keeps its metadata in RocksDB under `--metadata-dir` and
 * runs no ZooKeeper. Retention is unlimited and inactive topics are never deleted, so messages produced with no
 * subscription are still there for a consumer that subscribes at the earliest position later.
 * `overrides` replace or add keys.
 */
export function standaloneProperties(
  layout: StandaloneLayout,
  overrides: Readonly<Record<string, string | number | boolean>> = {},
): Record<string, string | number | boolean> {
  checkPort("brokerPort", layout.brokerPort);
  checkPort("webPort", layout.webPort);
  if (layout.brokerPort === layout.webPort)
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `brokerPort and webPort must differ (both ${String(layout.webPort)})`,
    );
  return {
    clusterName: STANDALONE_CLUSTER,
    bindAddress: "127.0.0.1",
    advertisedAddress: "127.0.0.1",
    brokerServicePort: layout.brokerPort,
    webServicePort: layout.webPort,
    metadataStoreUrl: "",
    managedLedgerDefaultEnsembleSize: 1,
    managedLedgerDefaultWriteQuorum: 1,
    managedLedgerDefaultAckQuorum: 1,
    loadManagerClassName: "org.apache.pulsar.broker.loadbalance.NoopLoadManager",
    loadBalancerEnabled: false,
    functionsWorkerEnabled: false,
    managedLedgerCacheSizeMB: 64,
    dbStorage_writeCacheMaxSizeMb: 64,
    dbStorage_readAheadCacheMaxSizeMb: 64,
    dbStorage_rocksDB_blockCacheSize: 16_777_216,
    allowLoopback: true,
    listeningInterface: "lo",
    ledgerStorageClass: "org.apache.bookkeeper.bookie.storage.ldb.DbLedgerStorage",
    journalSyncData: true,
    brokerDeleteInactiveTopicsEnabled: false,
    defaultRetentionTimeInMinutes: -1,
    defaultRetentionSizeInMB: -1,
    ...overrides,
  };
}

/** The properties as a `key=value` file (one per line, in insertion order). */
export function renderProperties(properties: Readonly<Record<string, string | number | boolean>>): string {
  return `${Object.entries(properties)
    .map(([key, value]) => {
      const text = String(value);
      if (/[\r\n]/.test(text) || /[\s=:]/.test(key))
        throw new NereusError(ErrorCode.INVALID_ARGUMENT, `property ${key} cannot be written as one key=value line`);
      return `${key}=${text}`;
    })
    .join("\n")}\n`;
}

/** log4j2.xml writing everything at INFO and above to `logFile` (without one, log4j2 prints errors only). */
export function log4j2Xml(logFile: string): string {
  const escaped = logFile.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Configuration status="warn">',
    "  <Appenders>",
    `    <File name="file" fileName="${escaped}" append="true">`,
    '      <PatternLayout pattern="%d{ISO8601} %-5p [%t] %c{1} - %m%n"/>',
    "    </File>",
    "  </Appenders>",
    "  <Loggers>",
    '    <Root level="info"><AppenderRef ref="file"/></Root>',
    "  </Loggers>",
    "</Configuration>",
    "",
  ].join("\n");
}

/** JVM flags of the standalone: `bin/pulsar`'s heap, direct memory, module openings and metadata drivers. */
export function standaloneJvmFlags(heapMb: number, log4j2File: string): string[] {
  if (!Number.isSafeInteger(heapMb) || heapMb < 256)
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `heapMb must be an integer >= 256, got ${String(heapMb)}`);
  const opens = ["java.base/java.io", "java.base/java.util.zip", "java.base/java.nio", "java.base/jdk.internal.misc"];
  return [
    `-Xms${String(heapMb)}m`,
    `-Xmx${String(heapMb)}m`,
    `-XX:MaxDirectMemorySize=${String(heapMb)}m`,
    "-XX:+UseG1GC",
    "-Djava.net.preferIPv4Stack=true",
    "-Dio.netty.tryReflectionSetAccessible=true",
    ...opens.map((module) => `--add-opens=${module}=ALL-UNNAMED`),
    "--add-opens=java.base/sun.net=ALL-UNNAMED",
    "--add-opens=java.management/sun.management=ALL-UNNAMED",
    "-Dbookkeeper.metadata.bookie.drivers=org.apache.pulsar.metadata.bookkeeper.PulsarMetadataBookieDriver",
    "-Dbookkeeper.metadata.client.drivers=org.apache.pulsar.metadata.bookkeeper.PulsarMetadataClientDriver",
    `-Dlog4j2.configurationFile=${log4j2File}`,
  ];
}

/**
 * Arguments of PulsarStandaloneStarter: the config file, no functions worker, no stream storage, and the
 * metadata and bookie directories inside the data directory (the defaults are relative to the working directory).
 */
export function standaloneArgs(layout: StandaloneLayout, configFile: string): string[] {
  return [
    "--config",
    configFile,
    "--no-functions-worker",
    "--no-stream-storage",
    "--metadata-dir",
    path.join(layout.dataDir, "metadata"),
    "--bookkeeper-dir",
    path.join(layout.dataDir, "bookkeeper"),
  ];
}

function checkPort(name: string, port: number): void {
  if (!Number.isSafeInteger(port) || port < 1 || port > 65_535)
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `${name} must be a port in [1, 65535], got ${String(port)}`);
}
