import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  STANDALONE_MAIN_CLASS,
  log4j2Xml,
  renderProperties,
  standaloneArgs,
  standaloneJvmFlags,
  standaloneProperties,
} from "./standalone-config.js";

const layout = { brokerPort: 16650, webPort: 18080, runDir: "/tmp/run", dataDir: "/tmp/run/data" };

function parse(text: string): Map<string, string> {
  return new Map(
    text
      .trimEnd()
      .split("\n")
      .map((line) => {
        const at = line.indexOf("=");
        return [line.slice(0, at), line.slice(at + 1)] as const;
      }),
  );
}

describe("standaloneProperties", () => {
  it("renders a loopback, single-bookie, RocksDB-metadata standalone whose journal syncs before acknowledging", () => {
    const conf = parse(renderProperties(standaloneProperties(layout)));
    expect(conf.get("brokerServicePort")).toBe("16650");
    expect(conf.get("webServicePort")).toBe("18080");
    expect(conf.get("bindAddress")).toBe("127.0.0.1");
    expect(conf.get("advertisedAddress")).toBe("127.0.0.1");
    expect(conf.get("listeningInterface")).toBe("lo");
    expect(conf.get("metadataStoreUrl")).toBe("");
    expect(conf.get("journalSyncData")).toBe("true");
    for (const key of ["EnsembleSize", "WriteQuorum", "AckQuorum"])
      expect(conf.get(`managedLedgerDefault${key}`)).toBe("1");
    expect(conf.get("clusterName")).toBe("standalone");
    expect(conf.get("ledgerStorageClass")).toBe("org.apache.bookkeeper.bookie.storage.ldb.DbLedgerStorage");
  });

  it("keeps messages without subscriptions: unlimited retention, inactive topics never deleted", () => {
    const conf = parse(renderProperties(standaloneProperties(layout)));
    expect(conf.get("defaultRetentionTimeInMinutes")).toBe("-1");
    expect(conf.get("defaultRetentionSizeInMB")).toBe("-1");
    expect(conf.get("brokerDeleteInactiveTopicsEnabled")).toBe("false");
  });

  it("lets overrides replace and add keys", () => {
    const conf = parse(renderProperties(standaloneProperties(layout, { journalSyncData: false, numIOThreads: 4 })));
    expect(conf.get("journalSyncData")).toBe("false");
    expect(conf.get("numIOThreads")).toBe("4");
  });

  it("refuses ports out of range or equal", () => {
    expect(() => standaloneProperties({ ...layout, brokerPort: 0 })).toThrow(/brokerPort must be a port/);
    expect(() => standaloneProperties({ ...layout, webPort: 70_000 })).toThrow(/webPort must be a port/);
    expect(() => standaloneProperties({ ...layout, webPort: 16650 })).toThrow(/must differ/);
  });
});

describe("renderProperties", () => {
  it("writes one key=value line per entry, in order", () => {
    expect(renderProperties({ a: 1, b: "x y", c: false })).toBe("a=1\nb=x y\nc=false\n");
  });

  it("refuses a value with a line break or a key with a separator", () => {
    expect(() => renderProperties({ a: "1\nb=2" })).toThrow(/cannot be written/);
    expect(() => renderProperties({ "a b": 1 })).toThrow(/cannot be written/);
  });
});

describe("standalone JVM and starter arguments", () => {
  it("sizes heap and direct memory alike and names the log configuration and metadata drivers", () => {
    const flags = standaloneJvmFlags(768, "/tmp/run/log4j2.xml");
    expect(flags).toEqual(expect.arrayContaining(["-Xms768m", "-Xmx768m", "-XX:MaxDirectMemorySize=768m"]));
    expect(flags).toContain("-Dlog4j2.configurationFile=/tmp/run/log4j2.xml");
    expect(flags).toContain("--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED");
    expect(flags.filter((flag) => flag.startsWith("-Dbookkeeper.metadata."))).toHaveLength(2);
    expect(() => standaloneJvmFlags(100, "x")).toThrow(/heapMb/);
  });

  it("runs without functions worker or stream storage, with metadata and bookie data under the data directory", () => {
    const args = standaloneArgs(layout, "/tmp/run/standalone.conf");
    expect(args).toEqual([
      "--config",
      "/tmp/run/standalone.conf",
      "--no-functions-worker",
      "--no-stream-storage",
      "--metadata-dir",
      path.join("/tmp/run/data", "metadata"),
      "--bookkeeper-dir",
      path.join("/tmp/run/data", "bookkeeper"),
    ]);
    expect(STANDALONE_MAIN_CLASS).toBe("org.apache.pulsar.PulsarStandaloneStarter");
  });

  it("sends the log to the given file, escaped for XML", () => {
    const xml = log4j2Xml('/tmp/a&b/"x".log');
    expect(xml).toContain('fileName="/tmp/a&amp;b/&quot;x&quot;.log"');
    expect(xml).toContain('<Root level="info">');
  });
});
