import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../test/support/temp-dirs.js";
import { defaultWalLingerMs, materializationMode } from "./broker-config.js";
import { ConfigError } from "./config-error.js";
import { loadBrokerConfig } from "./load-broker-config.js";

function load(
  argv: string[] = [],
  env: Record<string, string> = {},
  cwd = "/srv/nereus",
): ReturnType<typeof loadBrokerConfig> {
  return loadBrokerConfig({ argv, env, cwd });
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

describe("loadBrokerConfig", () => {
  test("the embedded default needs nothing", () => {
    const { config } = load();
    expect(config).toMatchObject({
      dataDir: "/srv/nereus/.nereus-data",
      cluster: "nereus",
      nodeId: 0,
      kafka: {
        host: "127.0.0.1",
        port: 9092,
        maxFrameBytes: 104_857_600,
        maxInFlightAppends: 2,
        pipelinedAppendMinBytes: 131_072,
        readAheadMaxBytes: 64 * 1024 * 1024,
        tailCacheBytes: 256 * 1024,
        tailCacheMaxBytes: 32 * 1024 * 1024,
      },
      admin: { enabled: true, host: "127.0.0.1", port: 9644 },
      storage: {
        defaultProfile: "OBJECT_WAL_SYNC_OBJECT",
        metadata: { kind: "sqlite" },
        objects: { kind: "filesystem" },
      },
      topics: { defaultPartitions: 1, autoCreate: true, retentionCheckIntervalMs: 300_000 },
      groups: { initialRebalanceDelayMs: 3_000 },
      log: { level: "info" },
    });
  });

  test("the Pulsar listener is on at 127.0.0.1:6650 by default; --no-pulsar, its variable or the file turn it off", () => {
    expect(load().config.pulsar).toMatchObject({
      enabled: true,
      host: "127.0.0.1",
      port: 6650,
      autoTopicCreation: { enabled: true, type: "non-partitioned", defaultPartitions: 1 },
    });
    expect(load(["--no-pulsar"]).config.pulsar.enabled).toBe(false);
    expect(load([], { NEREUS_PULSAR_ENABLED: "false" }).config.pulsar.enabled).toBe(false);
    expect(load(["--pulsar-port", "0"]).config.pulsar).toMatchObject({ enabled: true, port: 0 });
    const file = path.join(tempDir("config"), "broker.json");
    const autoTopicCreation = { enabled: false, type: "partitioned", defaultPartitions: 4 };
    writeFileSync(file, JSON.stringify({ pulsar: { enabled: false, autoTopicCreation } }));
    expect(load(["--config", file]).config.pulsar).toMatchObject({ enabled: false, autoTopicCreation });
    writeFileSync(file, JSON.stringify({ pulsar: { autoTopicCreation: { type: "sharded" } } }));
    expect(errorOf(() => load(["--config", file]))).toContain("pulsar.autoTopicCreation.type");
  });

  test("Pulsar publish backpressure: 1,000 pending SENDs per connection and 512 MiB broker-wide by default", () => {
    expect(load().config.pulsar).toMatchObject({
      maxPendingPublishRequestsPerConnection: 1_000,
      maxPendingPublishBytes: 512 * 1024 * 1024,
    });
    const file = path.join(tempDir("config"), "broker.json");
    const bounds = { maxPendingPublishRequestsPerConnection: 50, maxPendingPublishBytes: 1024 * 1024 };
    writeFileSync(file, JSON.stringify({ pulsar: bounds }));
    expect(load(["--config", file]).config.pulsar).toMatchObject(bounds);
    writeFileSync(file, JSON.stringify({ pulsar: { maxPendingPublishRequestsPerConnection: 0 } }));
    expect(errorOf(() => load(["--config", file]))).toContain("pulsar.maxPendingPublishRequestsPerConnection");
  });

  test("the Object WAL linger defaults to 0 ms on the filesystem store and 5 ms on S3; an explicit value wins", () => {
    expect(load().config.storage.walLingerMs).toBeUndefined();
    expect(defaultWalLingerMs(load().config)).toBe(0);
    const s3 = load(["--s3-bucket", "nereus-data", "--s3-endpoint", "http://127.0.0.1:9000"]).config;
    expect(s3.storage.objects.kind).toBe("s3");
    expect(defaultWalLingerMs(s3)).toBe(5);
    expect(load(["--wal-linger-ms", "3"]).config.storage.walLingerMs).toBe(3);
  });

  test("materialization defaults to async on the filesystem store and all on S3; flags, variables and files name a mode or a boolean", () => {
    expect(load().config.storage.materialization).toBeUndefined();
    expect(materializationMode(load().config)).toBe("async");
    expect(materializationMode(load(["--s3-bucket", "nereus-data"]).config)).toBe("all");
    expect(materializationMode(load(["--s3-bucket", "nereus-data", "--materialization", "async"]).config)).toBe(
      "async",
    );
    expect(materializationMode(load(["--materialization"]).config)).toBe("all");
    expect(materializationMode(load(["--materialization", "--log-level", "warn"]).config)).toBe("all");
    expect(materializationMode(load(["--no-materialization"]).config)).toBe("off");
    expect(materializationMode(load(["--materialization", "false"]).config)).toBe("off");
    expect(materializationMode(load(["--materialization=off"]).config)).toBe("off");
    expect(materializationMode(load(["--materialization", "all"]).config)).toBe("all");
    expect(materializationMode(load([], { NEREUS_MATERIALIZATION: "async" }).config)).toBe("async");
    expect(materializationMode(load([], { NEREUS_MATERIALIZATION: "true" }).config)).toBe("all");
    const dir = tempDir("config");
    const file = path.join(dir, "broker.json");
    writeFileSync(file, JSON.stringify({ storage: { materialization: false } }));
    expect(materializationMode(load(["--config", file]).config)).toBe("off");
    writeFileSync(file, JSON.stringify({ storage: { materialization: "all" } }));
    expect(materializationMode(load(["--config", file]).config)).toBe("all");
    expect(errorOf(() => load(["--materialization", "sometimes"]))).toBe(
      'bad config: storage.materialization (from --materialization=sometimes): must be "all", "async", "off", true or false',
    );
  });

  test("flags beat the environment, which beats the config file", () => {
    const dir = tempDir("config");
    const file = path.join(dir, "broker.json");
    writeFileSync(
      file,
      JSON.stringify({
        kafka: { port: 1111, host: "0.0.0.0" },
        topics: { defaultPartitions: 4 },
        cluster: "from-file",
      }),
    );
    const { config } = load(["--config", file, "--kafka-port=3333", "--no-auto-create-topics"], {
      NEREUS_KAFKA_PORT: "2222",
      NEREUS_CLUSTER: "from-env",
    });
    expect(config.kafka).toMatchObject({ port: 3333, host: "0.0.0.0" });
    expect(config.cluster).toBe("from-env");
    expect(config.topics).toMatchObject({ defaultPartitions: 4, autoCreate: false, retentionCheckIntervalMs: 300_000 });
    const viaEnv = load([], { NEREUS_CONFIG: file });
    expect(viaEnv.config.kafka.port).toBe(1111);
    expect(load(["--kafka-max-inflight-appends", "2"]).config.kafka.maxInFlightAppends).toBe(2);
    expect(load([], { NEREUS_KAFKA_MAX_INFLIGHT_APPENDS: "8" }).config.kafka.maxInFlightAppends).toBe(8);
    expect(load(["--kafka-pipelined-append-min-bytes", "0"]).config.kafka.pipelinedAppendMinBytes).toBe(0);
    expect(load([], { NEREUS_KAFKA_PIPELINED_APPEND_MIN_BYTES: "65536" }).config.kafka.pipelinedAppendMinBytes).toBe(
      65_536,
    );
    expect(load(["--kafka-read-ahead-max-bytes", "0"]).config.kafka.readAheadMaxBytes).toBe(0);
    expect(load([], { NEREUS_KAFKA_READ_AHEAD_MAX_BYTES: "1048576" }).config.kafka.readAheadMaxBytes).toBe(1_048_576);
  });

  test("etcd endpoints and S3 settings select the cluster stores", () => {
    const { config } = load(
      [
        "--etcd-endpoints",
        "http://10.0.0.1:2379, http://10.0.0.2:2379",
        "--s3-bucket",
        "nereus-data",
        "--s3-endpoint",
        "http://s3.local:9000",
        "--s3-force-path-style",
      ],
      { NEREUS_S3_ACCESS_KEY_ID: "id", NEREUS_S3_SECRET_ACCESS_KEY: "secret" },
    );
    expect(config.storage.metadata).toEqual({
      kind: "etcd",
      endpoints: ["http://10.0.0.1:2379", "http://10.0.0.2:2379"],
      dialTimeoutMs: 5_000,
      requestTimeoutMs: 10_000,
    });
    expect(config.storage.objects).toMatchObject({
      kind: "s3",
      bucket: "nereus-data",
      endpoint: "http://s3.local:9000",
      forcePathStyle: true,
      accessKeyId: "id",
      region: "us-east-1",
    });
  });

  test("errors name the field and where the bad value came from, on one line", () => {
    expect(errorOf(() => load(["--kafka-port", "abc"]))).toBe(
      "bad config: kafka.port (from --kafka-port=abc): Invalid input: expected number, received string",
    );
    expect(errorOf(() => load([], { NEREUS_KAFKA_PORT: "70000" }))).toMatch(
      /^bad config: kafka\.port \(from NEREUS_KAFKA_PORT=70000\): Too big/,
    );
    expect(errorOf(() => load(["--default-profile", "OBJECT_WAL_FAST"]))).toContain(
      "storage.defaultProfile (from --default-profile=OBJECT_WAL_FAST): must be one of",
    );
    expect(errorOf(() => load(["--etcd-endpoints", "not a url"]))).toContain(
      "storage.metadata.endpoints.0 (from --etcd-endpoints=not a url)",
    );
    const secret = errorOf(() => load(["--s3-bucket", "b", "--s3-secret-access-key", "hunter2"]));
    expect(secret).toContain("storage.objects.accessKeyId");
    expect(secret).not.toContain("hunter2");
    const twoProblems = errorOf(() => load(["--node-id", "-1", "--log-level", "loud"]));
    expect(twoProblems.split("; ")).toHaveLength(2);
    expect(twoProblems).not.toContain("\n");
  });

  test("config files: unknown keys, bad JSON and missing files are reported with the file name", () => {
    const dir = tempDir("config");
    const typo = path.join(dir, "typo.json");
    writeFileSync(typo, JSON.stringify({ kafka: { prot: 9093 } }));
    expect(errorOf(() => load(["--config", typo]))).toBe(
      `bad config: kafka.prot (from config file ${typo}): unknown field`,
    );
    const broken = path.join(dir, "broken.json");
    writeFileSync(broken, "{ kafka: ");
    expect(errorOf(() => load(["--config", broken]))).toContain(`config file ${broken} is not valid JSON`);
    expect(errorOf(() => load(["--config", path.join(dir, "missing.json")]))).toContain("cannot be read: ENOENT");
  });
});

describe("storage durability", () => {
  test("defaults to fsync; --durability os-buffered or NEREUS_DURABILITY selects os-buffered; anything else names the field", () => {
    expect(load().config.storage.durability).toBe("fsync");
    expect(load(["--durability", "os-buffered"]).config.storage.durability).toBe("os-buffered");
    expect(load([], { NEREUS_DURABILITY: "os-buffered" }).config.storage.durability).toBe("os-buffered");
    expect(errorOf(() => load(["--durability", "never"]))).toContain("storage.durability");
  });
});

describe("filesystem object layout", () => {
  test("defaults to segments; --objects-layout files or NEREUS_OBJECTS_LAYOUT selects files; anything else names the field", () => {
    const layoutOf = (config: ReturnType<typeof load>["config"]): string | undefined =>
      config.storage.objects.kind === "filesystem" ? config.storage.objects.layout : undefined;
    expect(layoutOf(load().config)).toBe("segments");
    expect(layoutOf(load(["--objects-layout", "files"]).config)).toBe("files");
    expect(layoutOf(load([], { NEREUS_OBJECTS_LAYOUT: "files" }).config)).toBe("files");
    expect(errorOf(() => load(["--objects-layout", "heap"]))).toContain("storage.objects.layout");
  });

  test("reads the newest 16 segments on the event loop by default; --objects-hot-read-segments or its variable sets it; bad values name the field", () => {
    const hotOf = (config: ReturnType<typeof load>["config"]): number | undefined =>
      config.storage.objects.kind === "filesystem" ? config.storage.objects.hotReadSegments : undefined;
    expect(hotOf(load().config)).toBe(16);
    expect(hotOf(load(["--objects-hot-read-segments", "0"]).config)).toBe(0);
    expect(hotOf(load([], { NEREUS_OBJECTS_HOT_READ_SEGMENTS: "4" }).config)).toBe(4);
    expect(errorOf(() => load(["--objects-hot-read-segments", "-1"]))).toContain("storage.objects.hotReadSegments");
    expect(errorOf(() => load(["--objects-hot-read-segments", "many"]))).toContain("hotReadSegments");
  });

  test("keeps 256 MiB of reused read buffers by default; --objects-read-buffer-bytes or its variable sets it; bad values name the field", () => {
    const buffersOf = (config: ReturnType<typeof load>["config"]): number | undefined =>
      config.storage.objects.kind === "filesystem" ? config.storage.objects.readBufferBytes : undefined;
    expect(buffersOf(load().config)).toBe(256 * 1024 * 1024);
    expect(buffersOf(load(["--objects-read-buffer-bytes", "0"]).config)).toBe(0);
    expect(buffersOf(load([], { NEREUS_OBJECTS_READ_BUFFER_BYTES: "1048576" }).config)).toBe(1_048_576);
    expect(errorOf(() => load(["--objects-read-buffer-bytes", "-1"]))).toContain("storage.objects.readBufferBytes");
    expect(errorOf(() => load(["--objects-read-buffer-bytes", "lots"]))).toContain("readBufferBytes");
  });
});
