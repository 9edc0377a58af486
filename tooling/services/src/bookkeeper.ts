// BookKeeper 4.17 bookies (Maven Central bookkeeper-server) against the run's ZooKeeper: fresh metadata via
// `BookieShell metaformat -nonInteractive -force`, then N bookies (org.apache.bookkeeper.server.Main), each
// bound to 127.0.0.1 with its own port, dirs, config and log, journalSyncData=false and a small heap. A bookie
// is ready when it is registered under <ledgersRoot>/available by a new ZooKeeper session and accepts TCP.
import fs from "node:fs";
import path from "node:path";
import type { BookieDescription, BookKeeperDescription, ZooKeeperDescription } from "./description.js";
import { ServiceStartError } from "./errors.js";
import { readLogTail, spawnProcess, type ProcessRecord, type StartedProcess } from "./managed-process.js";
import { ensureArtifactSet } from "./maven-cache.js";
import { isPortOpen, LOOPBACK } from "./ports.js";
import { ensureJava, type PrerequisiteContext } from "./prerequisites.js";
import { jvmFlags, logFile, runSubdir, spawnInRun, waitForReady, type RunContext } from "./run-context.js";
import { waitUntil } from "./wait.js";
import { recordRunPid } from "./watchdog.js";
import { ephemeralOwnerHex, statOf, withZooKeeper } from "./zk-client.js";

/** Options for the bookies. */
export interface BookKeeperOptions {
  /** Number of bookies (default 3). */
  readonly bookies?: number;
  /** Bookie ports (default: free ports). Taken ports are a start error. */
  readonly ports?: readonly number[];
  /** Bookie ZooKeeper session timeout in ms (default 4000): how long a killed bookie stays registered. */
  readonly zkTimeoutMs?: number;
  /** Max heap (and max direct memory) per bookie JVM in MiB (default 256). */
  readonly heapMb?: number;
  /** Readiness deadline per bookie (default 90 s). */
  readonly readyTimeoutMs?: number;
}

/** The ledgers root the harness formats. */
export const LEDGERS_ROOT = "/ledgers";

const JAVA17_OPENS = [
  "--add-opens=java.base/java.nio=ALL-UNNAMED",
  "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED",
  "--add-opens=java.base/java.io=ALL-UNNAMED",
  "--add-opens=java.base/java.util.zip=ALL-UNNAMED",
  "-Dio.netty.tryReflectionSetAccessible=true",
];

/** Checks what bookies need (java, the cached jars); returns java and the classpath. */
export async function bookkeeperPrerequisites(ctx: PrerequisiteContext): Promise<{ java: string; classpath: string }> {
  const java = await ensureJava("bookkeeper", ctx);
  const libDir = await ensureArtifactSet("bookkeeper", ctx);
  return { java, classpath: path.join(libDir, "*") };
}

function bookieJvmArgs(ctx: RunContext, heapMb: number, log4jConfig: string, classpath: string): string[] {
  return [
    ...jvmFlags(ctx, heapMb),
    `-XX:MaxDirectMemorySize=${heapMb}m`,
    ...JAVA17_OPENS,
    `-Dlog4j.configurationFile=${log4jConfig}`,
    "-Dlog4j2.disable.jmx=true",
    "-cp",
    classpath,
  ];
}

function writeBookieConf(dir: string, zk: ZooKeeperDescription, port: number, zkTimeoutMs: number): string {
  const journal = path.join(dir, "journal");
  const ledgers = path.join(dir, "ledgers");
  fs.mkdirSync(journal, { recursive: true });
  fs.mkdirSync(ledgers, { recursive: true });
  const conf = `${dir}.conf`;
  fs.writeFileSync(
    conf,
    [
      `metadataServiceUri=zk+hierarchical://${zk.connectString}${LEDGERS_ROOT}`,
      `zkTimeout=${zkTimeoutMs}`,
      `bookiePort=${port}`,
      `advertisedAddress=${LOOPBACK}`,
      "listeningInterface=lo",
      "allowLoopback=true",
      "useHostNameAsBookieID=false",
      `journalDirectories=${journal}`,
      `ledgerDirectories=${ledgers}`,
      "journalSyncData=false",
      "httpServerEnabled=false",
      "autoRecoveryDaemonEnabled=false",
      "diskUsageThreshold=0.99",
      "diskUsageWarnThreshold=0.98",
      "logSizeLimit=67108864",
      "",
    ].join("\n"),
  );
  return conf;
}

function writeLog4jConfig(file: string): void {
  fs.writeFileSync(
    file,
    [
      "rootLogger.level = info",
      "rootLogger.appenderRef.out.ref = OUT",
      "appender.out.type = Console",
      "appender.out.name = OUT",
      "appender.out.layout.type = PatternLayout",
      "appender.out.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{1} - %m%n",
      "",
    ].join("\n"),
  );
}

async function metaformat(
  ctx: RunContext,
  prereq: { java: string; classpath: string },
  args: string[],
  conf: string,
  cwd: string,
): Promise<void> {
  const proc = spawnInRun(ctx, {
    name: "bookkeeper-metaformat",
    command: prereq.java,
    args: [
      ...args,
      "org.apache.bookkeeper.bookie.BookieShell",
      "-conf",
      conf,
      "metaformat",
      "-nonInteractive",
      "-force",
    ],
    cwd,
    logFile: logFile(ctx, "bookkeeper-metaformat"),
    ports: [],
  });
  const log = proc.record.logFile;
  try {
    await waitUntil("BookieShell metaformat to finish", async () => proc.exitReason() !== undefined, {
      timeoutMs: 90_000,
      intervalMs: 50,
    });
  } catch (error) {
    throw new ServiceStartError("bookkeeper", `${(error as Error).message} (log: ${log})`, {
      logFile: log,
      logTail: readLogTail(log),
    });
  }
  if (proc.exitReason() !== "exited with code 0") {
    throw new ServiceStartError("bookkeeper", `BookieShell metaformat ${String(proc.exitReason())} (log: ${log})`, {
      logFile: log,
      logTail: readLogTail(log),
    });
  }
}

/**
 * Waits until bookie `bookie` is registered under `<root>/available` by a session other than `previousOwner`
 * and accepts TCP connections.
 */
async function waitRegistered(
  zk: ZooKeeperDescription,
  bookie: { id: string; port: number },
  previousOwner: string | undefined,
  proc: StartedProcess,
  timeoutMs: number,
): Promise<void> {
  const node = `${LEDGERS_ROOT}/available/${bookie.id}`;
  await withZooKeeper(zk.connectString, (client) =>
    waitForReady(
      "bookkeeper",
      proc,
      `bookie ${bookie.id} to register at ${node}`,
      async () => {
        const stat = await statOf(client, node);
        if (stat === undefined) return false;
        const owner = ephemeralOwnerHex(stat);
        return owner !== "" && owner !== previousOwner && (await isPortOpen(bookie.port));
      },
      timeoutMs,
      100,
    ),
  );
}

/** The session owning a bookie's registration node now ("" when absent). */
async function registrationOwner(zk: ZooKeeperDescription, bookieId: string): Promise<string> {
  return withZooKeeper(zk.connectString, async (client) => {
    const stat = await statOf(client, `${LEDGERS_ROOT}/available/${bookieId}`);
    return stat === undefined ? "" : ephemeralOwnerHex(stat);
  });
}

/** Starts the bookies (metaformat first) against `zk` on `ports`; waits until all are registered. */
export async function startBookKeeper(
  ctx: RunContext,
  prereq: { java: string; classpath: string },
  zk: ZooKeeperDescription,
  ports: readonly number[],
  options: BookKeeperOptions,
): Promise<{ description: BookKeeperDescription; processes: ProcessRecord[] }> {
  const base = runSubdir(ctx, "bookkeeper");
  const log4j = path.join(base, "log4j2.properties");
  writeLog4jConfig(log4j);
  const heapMb = options.heapMb ?? 256;
  const zkTimeoutMs = options.zkTimeoutMs ?? 4000;
  const jvmArgs = bookieJvmArgs(ctx, heapMb, log4j, prereq.classpath);
  const confs = ports.map((port, i) => writeBookieConf(path.join(base, `bookie-${i}`), zk, port, zkTimeoutMs));
  const firstConf = confs[0];
  if (firstConf === undefined) throw new ServiceStartError("bookkeeper", "at least one bookie is needed");
  await metaformat(ctx, prereq, bookieJvmArgs(ctx, 128, log4j, prereq.classpath), firstConf, base);

  const started = ports.map((port, i) => {
    const dataDir = path.join(base, `bookie-${i}`);
    const proc = spawnInRun(ctx, {
      name: `bookie-${i}`,
      command: prereq.java,
      args: [...jvmArgs, "org.apache.bookkeeper.server.Main", "--conf", confs[i] ?? firstConf],
      cwd: dataDir,
      logFile: logFile(ctx, `bookie-${i}`),
      ports: [port],
    });
    return { proc, port, dataDir, conf: confs[i] ?? firstConf };
  });
  const timeoutMs = options.readyTimeoutMs ?? 90_000;
  await Promise.all(
    started.map(({ proc, port }) =>
      waitRegistered(zk, { id: `${LOOPBACK}:${port}`, port }, undefined, proc, timeoutMs),
    ),
  );

  const bookies: BookieDescription[] = started.map(({ proc, port, dataDir, conf }, index) => ({
    index,
    id: `${LOOPBACK}:${port}`,
    address: `${LOOPBACK}:${port}`,
    port,
    pid: proc.record.pid,
    dataDir,
    confFile: conf,
    logFile: proc.record.logFile,
  }));
  return {
    description: {
      zkLedgersRoot: LEDGERS_ROOT,
      metadataServiceUri: `zk+hierarchical://${zk.connectString}${LEDGERS_ROOT}`,
      zkTimeoutMs,
      bookies,
    },
    processes: started.map(({ proc }) => proc.record),
  };
}

/**
 * Starts a bookie again from its recorded command (same port, dirs and config) and waits until it has
 * registered with a new ZooKeeper session. Returns the new process record.
 */
export async function respawnBookie(
  zk: ZooKeeperDescription,
  bookie: BookieDescription,
  record: ProcessRecord,
  options: { guard: boolean; readyTimeoutMs?: number },
): Promise<ProcessRecord> {
  const previousOwner = await registrationOwner(zk, bookie.id);
  const { pid: _oldPid, ...spec } = record;
  const proc = spawnProcess(spec, { guard: options.guard });
  recordRunPid(record.marker, proc.record.pid);
  await waitRegistered(
    zk,
    { id: bookie.id, port: bookie.port },
    previousOwner === "" ? undefined : previousOwner,
    proc,
    options.readyTimeoutMs ?? 90_000,
  );
  return proc.record;
}
