import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../test/support/temp-dirs.js";
import { parseMetadataServiceUri } from "./bookkeeper-config.js";
import { servedStorage } from "./broker-config.js";
import { ConfigError } from "./config-error.js";
import { loadBrokerConfig } from "./load-broker-config.js";
import { redactSecrets, redactSource } from "./secret-fields.js";
import { unservedProfileReason } from "./served-profiles.js";

function load(argv: string[] = [], env: Record<string, string> = {}): ReturnType<typeof loadBrokerConfig> {
  return loadBrokerConfig({ argv, env, cwd: "/srv/nereus" });
}

function errorOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

const ZK = ["--bookkeeper-zookeeper", "zk1:2181,zk2:2181"];

describe("storage.bookkeeper", () => {
  test("absent by default; a ZooKeeper connect string configures it with BookKeeper's defaults", () => {
    expect(load().config.storage.bookkeeper).toBeUndefined();
    expect(load(ZK).config.storage.bookkeeper).toEqual({
      zooKeeper: "zk1:2181,zk2:2181",
      ledgersRoot: "/ledgers",
      ensembleSize: 3,
      writeQuorum: 2,
      ackQuorum: 2,
      digestType: "CRC32C",
      password: "",
      clusterAlias: "bookkeeper",
      startupTimeoutMs: 10_000,
      zooKeeperSessionTimeoutMs: 30_000,
      connectTimeoutMs: 5_000,
      requestTimeoutMs: 10_000,
      ledgerRollover: { maxEntries: 50_000, maxBytes: 2 * 1024 ** 3, maxAgeMs: 4 * 60 * 60 * 1000 },
    });
  });

  test("flags, variables and the config file set every field; flags win", () => {
    const file = path.join(tempDir("config"), "broker.json");
    writeFileSync(
      file,
      JSON.stringify({
        storage: {
          bookkeeper: {
            zooKeeper: "zk:2181",
            ensembleSize: 5,
            clusterAlias: "bk-east",
            ledgerRollover: { maxEntries: 10 },
          },
        },
      }),
    );
    const { config } = load(["--config", file, "--bookkeeper-ensemble-size", "4", "--bookkeeper-digest-type", "HMAC"], {
      NEREUS_BOOKKEEPER_WRITE_QUORUM: "3",
      NEREUS_BOOKKEEPER_ACK_QUORUM: "3",
      NEREUS_BOOKKEEPER_PASSWORD: "hunter2",
      NEREUS_BOOKKEEPER_LEDGERS_ROOT: "/bk/ledgers",
      NEREUS_BOOKKEEPER_STARTUP_TIMEOUT_MS: "2000",
      NEREUS_BOOKKEEPER_REQUEST_TIMEOUT_MS: "3000",
    });
    expect(config.storage.bookkeeper).toMatchObject({
      zooKeeper: "zk:2181",
      ledgersRoot: "/bk/ledgers",
      ensembleSize: 4,
      writeQuorum: 3,
      ackQuorum: 3,
      digestType: "HMAC",
      password: "hunter2",
      clusterAlias: "bk-east",
      startupTimeoutMs: 2_000,
      requestTimeoutMs: 3_000,
      ledgerRollover: { maxEntries: 10, maxBytes: 2 * 1024 ** 3 },
    });
  });

  test("a metadata service URI resolves into the connect string and the ledgers root", () => {
    const { config } = load([
      "--bookkeeper-metadata-service-uri",
      "zk+hierarchical://10.0.0.1:2181;10.0.0.2:2181/pulsar/ledgers",
    ]);
    expect(config.storage.bookkeeper).toMatchObject({
      zooKeeper: "10.0.0.1:2181,10.0.0.2:2181",
      ledgersRoot: "/pulsar/ledgers",
    });
    expect(parseMetadataServiceUri("zk://127.0.0.1:2181")).toEqual({
      zooKeeper: "127.0.0.1:2181",
      ledgersRoot: "/ledgers",
    });
    expect(parseMetadataServiceUri("etcd://127.0.0.1:2379/ledgers")).toMatch(/scheme etcd is not served/);
    expect(parseMetadataServiceUri("zk+hierarchical://zk/ledgers")).toMatch(/host:port/);
  });

  test("bad values are one line naming the field and where it came from", () => {
    expect(errorOf(() => load([...ZK, "--bookkeeper-ack-quorum", "3"]))).toBe(
      "bad config: storage.bookkeeper.ackQuorum (from --bookkeeper-ack-quorum=3): ackQuorum 3 exceeds writeQuorum 2",
    );
    expect(errorOf(() => load([...ZK], { NEREUS_BOOKKEEPER_WRITE_QUORUM: "4" }))).toContain(
      "storage.bookkeeper.writeQuorum (from NEREUS_BOOKKEEPER_WRITE_QUORUM=4): writeQuorum 4 exceeds ensembleSize 3",
    );
    expect(errorOf(() => load(["--bookkeeper-ensemble-size", "3"]))).toBe(
      "bad config: storage.bookkeeper: names no BookKeeper cluster: give zooKeeper (e.g. 127.0.0.1:2181) or metadataServiceUri (e.g. zk+hierarchical://127.0.0.1:2181/ledgers)",
    );
    expect(
      errorOf(() => load([...ZK, "--bookkeeper-metadata-service-uri", "zk+hierarchical://zk:2181/ledgers"])),
    ).toContain("storage.bookkeeper.metadataServiceUri (from --bookkeeper-metadata-service-uri=");
    expect(errorOf(() => load(["--bookkeeper-zookeeper", "zk"]))).toContain(
      "storage.bookkeeper.zooKeeper (from --bookkeeper-zookeeper=zk): must be host:port",
    );
    expect(errorOf(() => load([...ZK, "--bookkeeper-digest-type", "MD5"]))).toContain(
      "storage.bookkeeper.digestType (from --bookkeeper-digest-type=MD5): must be one of CRC32C, CRC32, HMAC, DUMMY",
    );
    expect(errorOf(() => load([...ZK, "--bookkeeper-ledgers-root", "ledgers/"]))).toContain(
      "storage.bookkeeper.ledgersRoot",
    );
    expect(errorOf(() => load([...ZK, "--bookkeeper-ensemble-size", "0"]))).toContain(
      "storage.bookkeeper.ensembleSize",
    );
  });

  test("the password never shows: not in a config error's source, not in --print-config", () => {
    const problem = errorOf(() =>
      load(["--bookkeeper-password", "hunter2", "--bookkeeper-ack-quorum", "9"], {
        NEREUS_BOOKKEEPER_PASSWORD: "swordfish",
      }),
    );
    expect(problem).toContain("storage.bookkeeper");
    expect(problem).not.toContain("hunter2");
    const noCluster = errorOf(() => load([], { NEREUS_BOOKKEEPER_PASSWORD: "swordfish" }));
    expect(noCluster).toContain("storage.bookkeeper: names no BookKeeper cluster");
    expect(redactSource("--bookkeeper-password=hunter2")).toBe("--bookkeeper-password=<redacted>");
    expect(redactSource("NEREUS_BOOKKEEPER_PASSWORD=hunter2")).toBe("NEREUS_BOOKKEEPER_PASSWORD=<redacted>");
    expect(redactSource("--bookkeeper-zookeeper=zk:2181")).toBe("--bookkeeper-zookeeper=zk:2181");
    expect(noCluster).not.toContain("swordfish");
    const printed = JSON.stringify(redactSecrets(load([...ZK, "--bookkeeper-password", "hunter2"]).config));
    expect(printed).not.toContain("hunter2");
    expect(printed).toContain('"password":"<redacted>"');
  });
});

describe("profiles", () => {
  test("all five profiles (and the alias) are accepted as the default with BookKeeper configured", () => {
    for (const profile of [
      "OBJECT_WAL_SYNC_OBJECT",
      "OBJECT_WAL_ASYNC_OBJECT",
      "OBJECT_WAL",
      "BOOKKEEPER_WAL_ONLY",
      "BOOKKEEPER_WAL_ASYNC_OBJECT",
      "BOOKKEEPER_WAL_SYNC_OBJECT",
    ]) {
      expect(load([...ZK, "--default-profile", profile]).config.storage.defaultProfile).toBe(profile);
    }
  });

  test("a BookKeeper default profile without BookKeeper, or BOOKKEEPER_WAL_SYNC_OBJECT without materialization, is refused", () => {
    expect(errorOf(() => load(["--default-profile", "BOOKKEEPER_WAL_ONLY"]))).toBe(
      "bad config: storage.defaultProfile (from --default-profile=BOOKKEEPER_WAL_ONLY): BOOKKEEPER_WAL_ONLY needs BookKeeper, and this broker has none configured (storage.bookkeeper: --bookkeeper-zookeeper or --bookkeeper-metadata-service-uri)",
    );
    expect(
      errorOf(() => load([...ZK, "--default-profile", "BOOKKEEPER_WAL_SYNC_OBJECT", "--no-materialization"])),
    ).toContain("BOOKKEEPER_WAL_SYNC_OBJECT acknowledges an append once background materialization");
    expect(
      load([...ZK, "--default-profile", "BOOKKEEPER_WAL_ASYNC_OBJECT", "--no-materialization"]).config.storage
        .defaultProfile,
    ).toBe("BOOKKEEPER_WAL_ASYNC_OBJECT");
  });

  test("the reason a profile is not served names what is missing", () => {
    const objectOnly = servedStorage(load().config.storage);
    expect(objectOnly).toEqual({ bookkeeper: false, materialization: true });
    expect(unservedProfileReason(objectOnly, "OBJECT_WAL_ASYNC_OBJECT")).toBeUndefined();
    expect(unservedProfileReason(objectOnly, "BOOKKEEPER_WAL_ASYNC_OBJECT")).toMatch(/needs BookKeeper/);
    const withBookKeeper = servedStorage(load(ZK).config.storage);
    expect(unservedProfileReason(withBookKeeper, "BOOKKEEPER_WAL_SYNC_OBJECT")).toBeUndefined();
  });
});
