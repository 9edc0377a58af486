// The broker's configuration: one zod 4 schema with every default, so a config file, the environment and flags
// all produce the same validated object. Unknown keys are errors (a typo never silently falls back to a default).
// The embedded default needs nothing: filesystem objects + SQLite metadata under `dataDir`, Kafka on
// 127.0.0.1:9092, admin HTTP on 127.0.0.1:9644, profile OBJECT_WAL_SYNC_OBJECT. A cluster uses
// `storage.metadata = { kind: "etcd", ... }` and `storage.objects = { kind: "s3", ... }`; `storage.bookkeeper`
// adds the BookKeeper profiles.
import { CANONICAL_STORAGE_PROFILES } from "@nereus/core";
import { z } from "zod";
import { BookKeeperConfigSchema } from "./bookkeeper-config.js";
import { EtcdMetadataConfigSchema } from "./etcd-config.js";
import { ReclamationConfigSchema } from "./reclamation-config.js";
import { AdminAuthConfigSchema } from "./admin-auth-config.js";
import { KafkaListenersSchema } from "./listeners-config.js";
import { KafkaAuthorizationConfigSchema } from "./kafka-authorization-config.js";
import { PulsarAuthConfigSchema } from "./pulsar-auth-config.js";
import { KafkaSaslConfigSchema } from "./kafka-sasl-config.js";
import { PulsarTlsConfigSchema } from "./pulsar-tls-config.js";
import { TlsConfigSchema } from "./tls-config.js";
import { type StorageServices, unservedProfileReason } from "./served-profiles.js";

const port = z.int().min(0).max(65_535);
const positive = z.int().min(1).max(0x7fff_ffff);

const sqliteMetadata = z.strictObject({
  kind: z.literal("sqlite"),
  /** Database file (default `<dataDir>/metadata.sqlite`). */
  path: z.string().min(1).optional(),
});

const filesystemObjects = z.strictObject({
  kind: z.literal("filesystem"),
  /** Directory of the object store (default `<dataDir>/objects`). */
  root: z.string().min(1).optional(),
  /**
   * "segments" (default): objects up to 16 MiB are appended to segment files, one write and one shared fdatasync
   * per group of puts; "files": a file per object (temp file, fsync, link, directory fsync). Objects written in the
   * other layout stay readable either way.
   */
  layout: z.enum(["segments", "files"], { error: 'must be "segments" or "files"' }).default("segments"),
  /**
   * Segment layout: reads of the newest this-many segments (16 = 1 GiB) run on the event loop with a synchronous
   * read from the page cache instead of a worker thread; three slow reads in a row (> 2 ms: from the disk) send a
   * segment's reads back to the workers. 0 keeps every read on the workers (e.g. on a network filesystem).
   */
  hotReadSegments: z.int().min(0).max(1_000_000).default(16),
  /**
   * Segment layout: bytes of reusable buffers for the reads on the event loop. A buffer is reused once nothing
   * references the bytes read into it, which saves page faults and full garbage collections while consumers catch
   * up. Allocated as reads need them and let go after 30 s without reads. 0: a new buffer per read.
   */
  readBufferBytes: z
    .int()
    .min(0)
    .max(2 ** 40)
    .default(256 * 1024 * 1024),
});

const s3Objects = z
  .strictObject({
    kind: z.literal("s3"),
    /** Custom endpoint of an S3-compatible server; omit for AWS. */
    endpoint: z.url({ protocol: /^https?$/ }).optional(),
    region: z.string().min(1).default("us-east-1"),
    bucket: z.string().min(3, "must be an S3 bucket name"),
    accessKeyId: z.string().min(1).optional(),
    secretAccessKey: z.string().min(1).optional(),
    forcePathStyle: z.boolean().default(false),
    /** Prepended to every object key, e.g. "cluster-a/". */
    keyPrefix: z.string().default(""),
  })
  .refine((value) => (value.accessKeyId === undefined) === (value.secretAccessKey === undefined), {
    message:
      "accessKeyId and secretAccessKey go together (give both, or neither to use the AWS default credential chain)",
    path: ["accessKeyId"],
  });

/** Storage profile names the configuration accepts: the five profiles and the alias OBJECT_WAL. */
export const BROKER_PROFILES = [...CANONICAL_STORAGE_PROFILES, "OBJECT_WAL"] as const;

/**
 * Which topics the background materialization worker builds read-optimized generations for:
 * - "all": every Object WAL topic (both profiles);
 * - "async": only the topics whose profile requires the generations — OBJECT_WAL_ASYNC_OBJECT (and the
 *   generation-0 index repair the worker also does; their appends are refused once too much is unmaterialized) and
 *   the two BookKeeper object profiles; the higher generations of OBJECT_WAL_SYNC_OBJECT topics are optional
 *   (docs/architecture.md §6), and they are read from their WAL objects;
 * - "off": no background worker at all (no generations, no generation-0 repair): *_ASYNC_OBJECT topics are refused
 *   new appends once their unmaterialized backlog passes the lag bound (1,000,000 records or 1 GiB), and
 *   BOOKKEEPER_WAL_SYNC_OBJECT, which acknowledges once a generation holds the append, is not served.
 */
export const MATERIALIZATION_MODES = ["all", "async", "off"] as const;
export type MaterializationMode = (typeof MATERIALIZATION_MODES)[number];

export const BrokerConfigSchema = z.strictObject({
  /** Where the embedded stores live (and the lock file). */
  dataDir: z.string().min(1).default("./.nereus-data"),
  /** Cluster name: every metadata key lives under /nereus/clusters/{cluster}. */
  cluster: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, "must match [A-Za-z0-9_.-]+")
    .default("nereus"),
  /** This broker's Kafka node id; also names its writer identity `broker-{nodeId}`. */
  nodeId: z.int().min(0).max(0x7fff_ffff).default(0),
  kafka: z
    .strictObject({
      host: z.string().min(1).default("127.0.0.1"),
      /** 0 picks a free port. */
      port: port.default(9092),
      /** What Metadata and FindCoordinator tell clients (default: host, or 127.0.0.1 for a wildcard host). */
      advertisedHost: z.string().min(1).optional(),
      /** Default: the port actually bound. */
      advertisedPort: z.int().min(1).max(65_535).optional(),
      /** Several listeners (PLAINTEXT, SSL, SASL_*), replacing host/port/advertised*; see listeners-config.ts. */
      listeners: KafkaListenersSchema.optional(),
      /** ACL authorization of Kafka requests (kafka-authorization-config.ts); off by default. */
      authorization: KafkaAuthorizationConfigSchema.prefault({}),
      /** What SASL_PLAINTEXT and SASL_SSL listeners accept (kafka-sasl-config.ts). */
      sasl: KafkaSaslConfigSchema.prefault({}),
      /** Largest request frame (Kafka's socket.request.max.bytes). */
      maxFrameBytes: z.int().min(1_024).max(0x7fff_ffff).default(104_857_600),
      /** Requests read ahead of their responses per connection before reading pauses. */
      maxInFlightRequests: positive.default(1_000),
      /**
       * Appends of one partition in flight at once (1 = each waits for the previous one's acknowledgement; produce
       * requests that arrive meanwhile merge into the next append). A second one starts only once
       * `pipelinedAppendMinBytes` wait for it.
       */
      maxInFlightAppends: z.int().min(1).max(64).default(2),
      /**
       * With an append of a partition in flight, the next starts early only once this many bytes of batches wait for
       * it (0 = as soon as `maxInFlightAppends` allows). Each append has a fixed cost (a WAL object, two metadata
       * txns): ungated, 2 or 4 in flight made appends smaller and lost to 1 in the kafka-baseline bench; gated at
       * 128 KiB, 2 in flight beat 1 by 5-7 % (96 KiB and 160 KiB did worse than 128 KiB).
       */
      pipelinedAppendMinBytes: z
        .int()
        .min(0)
        .max(2 ** 31)
        .default(128 * 1024),
      /**
       * Bytes the Fetch read-ahead buffers of all partitions hold at most together (0 turns read-ahead off). A
       * consumer reading a partition in order is served from its buffer, two Fetch budgets ahead.
       */
      readAheadMaxBytes: z
        .int()
        .min(0)
        .max(2 ** 40)
        .default(64 * 1024 * 1024),
      /** Bytes of each partition's newest batches kept in memory for consumers at the log end (0 = none). */
      tailCacheBytes: z
        .int()
        .min(0)
        .max(2 ** 30)
        .default(256 * 1024),
      /** Bytes the tail caches of all partitions hold at most together. */
      tailCacheMaxBytes: z
        .int()
        .min(0)
        .max(2 ** 40)
        .default(32 * 1024 * 1024),
    })
    .prefault({}),
  /**
   * Limits on what clients may hold of the broker, across its protocol listeners (the defaults follow Kafka's where
   * Kafka has one): they keep a hostile or careless client from exhausting memory, connections or file handles.
   */
  connections: z
    .strictObject({
      /** Connections open at once (Kafka's max.connections); more are closed on accept. */
      maxConnections: positive.default(10_000),
      /** Connections open at once from one remote address (max.connections.per.ip). */
      maxConnectionsPerIp: positive.default(1_000),
      /** A connection with no request in flight and no traffic for this long is closed (connections.max.idle.ms); 0 = never. */
      idleTimeoutMs: z.int().min(0).max(86_400_000).default(600_000),
      /** A request frame must arrive whole within this long of its first byte (slow or stalled senders are cut off). */
      requestFrameTimeoutMs: z.int().min(100).max(3_600_000).default(30_000),
      /** Bytes of requests read ahead of their responses on one connection before its reading pauses. */
      maxInFlightBytesPerConnection: z
        .int()
        .min(1_024)
        .max(2 ** 40)
        .default(64 * 1024 * 1024),
      /**
       * Bytes of requests the broker holds at once, received and not yet answered (Kafka's queued.max.request.bytes):
       * beyond it, connections stop being read until requests are answered. A single request larger than this is
       * still served, alone.
       */
      requestMemoryBytes: z
        .int()
        .min(1_024)
        .max(2 ** 40)
        .default(512 * 1024 * 1024),
    })
    .prefault({}),
  /** The Pulsar binary-protocol listener, on by default (it shares the storage and connection limits). */
  pulsar: z
    .strictObject({
      enabled: z.boolean().default(true),
      host: z.string().min(1).default("127.0.0.1"),
      /** 0 picks a free port. */
      port: port.default(6650),
      /** What LOOKUP tells clients (default: the Kafka advertised host rules, and the port actually bound). */
      advertisedHost: z.string().min(1).optional(),
      advertisedPort: z.int().min(1).max(65_535).optional(),
      /** A TLS listener for pulsar+ssl:// clients (pulsar-tls-config.ts). */
      tls: PulsarTlsConfigSchema.optional(),
      /** Authentication and authorization of Pulsar clients (pulsar-auth-config.ts). */
      auth: PulsarAuthConfigSchema.prefault({}),
      /** Largest message accepted (CONNECTED.max_message_size); frames may exceed it by 10 KiB of headers. */
      maxMessageBytes: z
        .int()
        .min(1_024)
        .max(2 ** 30)
        .default(5 * 1024 * 1024),
      /** A PING goes to a client silent for this long; one silent for twice as long is closed (0 = never). */
      keepAliveMs: z.int().min(0).max(3_600_000).default(30_000),
      /** Broker-side deduplication of producers by sequence id, for topics whose policy does not say otherwise. */
      deduplication: z.boolean().default(false),
      /** SENDs a connection may have pending (not answered yet) before it stops being read, until half are answered. */
      maxPendingPublishRequestsPerConnection: z.int().min(1).max(1_000_000).default(1_000),
      /** Bytes of pending SENDs, broker-wide, at which every connection stops being read until half drained. */
      maxPendingPublishBytes: z
        .int()
        .min(1_024)
        .max(2 ** 40)
        .default(512 * 1024 * 1024),
      /**
       * Whether a topic a client uses that does not exist is created, for namespaces whose policy does not say
       * otherwise (Apache Pulsar's defaults): "partitioned" topics get `defaultPartitions` partitions when a client
       * asks for the topic's partitioned metadata; "non-partitioned" topics are created by their first producer or
       * consumer.
       */
      autoTopicCreation: z
        .strictObject({
          enabled: z.boolean().default(true),
          type: z
            .enum(["non-partitioned", "partitioned"], { error: 'must be "non-partitioned" or "partitioned"' })
            .default("non-partitioned"),
          defaultPartitions: positive.default(1),
        })
        .prefault({}),
    })
    .prefault({}),
  admin: z
    .strictObject({
      enabled: z.boolean().default(true),
      host: z.string().min(1).default("127.0.0.1"),
      port: port.default(9644),
      /** HTTPS instead of HTTP (tls-config.ts). */
      tls: TlsConfigSchema.optional(),
      /** Bearer tokens or client certificates (admin-auth-config.ts). */
      auth: AdminAuthConfigSchema.prefault({}),
    })
    .prefault({}),
  storage: z
    .strictObject({
      defaultProfile: z
        .enum(BROKER_PROFILES, { error: `must be one of ${BROKER_PROFILES.join(", ")}` })
        .default("OBJECT_WAL_SYNC_OBJECT"),
      metadata: z.discriminatedUnion("kind", [sqliteMetadata, EtcdMetadataConfigSchema]).prefault({ kind: "sqlite" }),
      objects: z.discriminatedUnion("kind", [filesystemObjects, s3Objects]).prefault({ kind: "filesystem" }),
      /**
       * How long the Object WAL writer waits to pack more appends into one object. Default: 0 on the filesystem
       * store (an object costs a local file, and a busy writer still packs what arrives meanwhile), 5 ms on S3
       * (an object costs a PUT request).
       */
      walLingerMs: z.int().min(0).max(1_000).optional(),
      /**
       * When the embedded stores (SQLite metadata, filesystem objects) count a write as done: "fsync" (default) after
       * it is on disk, "os-buffered" once the OS has it (survives a broker crash, not an OS crash or power loss — what
       * Apache Kafka does by default). etcd and S3 keep their own guarantees.
       */
      durability: z.enum(["fsync", "os-buffered"], { error: 'must be "fsync" or "os-buffered"' }).default("fsync"),
      /**
       * Which topics get read-optimized generations in the background (see {@link materializationMode}): "all",
       * "async" (only OBJECT_WAL_ASYNC_OBJECT topics, whose profile requires them) or "off"; true / false are "all" /
       * "off". Default: "async" on the filesystem store, "all" on S3.
       */
      materialization: z
        .union([z.boolean(), z.enum(MATERIALIZATION_MODES)], {
          error: `must be ${MATERIALIZATION_MODES.map((mode) => `"${mode}"`).join(", ")}, true or false`,
        })
        .transform((value): MaterializationMode => (value === true ? "all" : value === false ? "off" : value))
        .optional(),
      /** The BookKeeper cluster of the BookKeeper profiles (absent: the broker serves the Object WAL profiles only). */
      bookkeeper: BookKeeperConfigSchema.optional(),
      /** The storage collector: deletes the objects trims and deleted topics left unneeded (reclamation-config.ts). */
      reclamation: ReclamationConfigSchema.prefault({}),
    })
    .superRefine((storage, context) => {
      const reason = unservedProfileReason(servedStorage(storage), storage.defaultProfile);
      if (reason !== undefined) context.addIssue({ code: "custom", message: reason, path: ["defaultProfile"] });
    })
    .prefault({}),
  topics: z
    .strictObject({
      defaultPartitions: positive.default(1),
      autoCreate: z.boolean().default(true),
      /** Period of the sweep that enforces topics' retention.ms (Kafka's log.retention.check.interval.ms); 0 = never. */
      retentionCheckIntervalMs: z.int().min(0).max(86_400_000).default(300_000),
      /** Partitions one topic may have (CreateTopics and CreatePartitions above it: INVALID_PARTITIONS). */
      maxPartitionsPerTopic: positive.default(10_000),
      /** Partitions of all topics together (above it: POLICY_VIOLATION). */
      maxPartitionsPerBroker: positive.default(100_000),
      /** Distinct topic names of one Metadata request that are resolved; the rest are answered POLICY_VIOLATION. */
      maxTopicsPerMetadataRequest: positive.default(10_000),
      /** Topics of one CreateTopics request that are created; the rest are answered POLICY_VIOLATION. */
      maxTopicsPerCreateTopicsRequest: positive.default(1_000),
      /** Topics auto-created per second, over all clients (a name beyond it: LEADER_NOT_AVAILABLE, which clients retry). */
      autoCreatePerSecond: z.number().positive().max(1_000_000).default(100),
      /** Auto-creations allowed at once after a quiet period (default: autoCreatePerSecond). */
      autoCreateBurst: positive.optional(),
    })
    .prefault({}),
  groups: z
    .strictObject({
      initialRebalanceDelayMs: z.int().min(0).max(300_000).default(3_000),
      minSessionTimeoutMs: positive.default(6_000),
      maxSessionTimeoutMs: positive.default(1_800_000),
    })
    .refine((value) => value.minSessionTimeoutMs <= value.maxSessionTimeoutMs, {
      message: "minSessionTimeoutMs exceeds maxSessionTimeoutMs",
      path: ["minSessionTimeoutMs"],
    })
    .prefault({}),
  /**
   * Sharing partitions and groups with other brokers of the same cluster (etcd metadata only): each broker registers
   * under a lease, and every partition and consumer group is led by one live broker, chosen by rendezvous hashing and
   * claimed in etcd. Off: this broker leads every partition and coordinates every group.
   */
  membership: z
    .strictObject({
      enabled: z.boolean().default(false),
      /** How long a broker that stops renewing its lease still counts as live (etcd rounds up to whole seconds). */
      leaseTtlMs: z.int().min(2_000).max(600_000).default(6_000),
    })
    .prefault({}),
  log: z
    .strictObject({
      level: z.enum(["debug", "info", "warn", "error"]).default("info"),
      /** "json" lines, "pretty" text, or "auto": pretty when stdout is a terminal, else json. */
      format: z.enum(["auto", "json", "pretty"], { error: 'must be "auto", "json" or "pretty"' }).default("auto"),
    })
    .prefault({}),
  /** How long a graceful shutdown waits for in-flight requests before closing connections. */
  shutdownTimeoutMs: z.int().min(0).max(600_000).default(10_000),
});

/** The validated configuration. */
export type BrokerConfig = z.output<typeof BrokerConfigSchema>;
/** What a config file (or a test) may write: every field optional. */
export type BrokerConfigInput = z.input<typeof BrokerConfigSchema>;

/**
 * The materialization mode in effect: the configured one, else "async" on the filesystem store and "all" on S3. On
 * one local disk the WAL objects already serve reads as fast as generations do (in the benchmark, reads of 16
 * partitions were slower from generations), while rewriting every byte cost a quarter of the sustained produce
 * throughput and doubled the disk space used (nothing reclaims the WAL objects yet). On S3 a generation replaces
 * many small multi-stream WAL objects (fewer, larger GETs).
 */
export function materializationMode(config: BrokerConfig): MaterializationMode {
  return storageMaterializationMode(config.storage);
}

/** What the storage section provides for the profiles (see {@link unservedProfileReason}). */
export function servedStorage(
  storage: Pick<BrokerConfig["storage"], "materialization" | "objects" | "bookkeeper">,
): StorageServices {
  return {
    bookkeeper: storage.bookkeeper !== undefined,
    materialization: storageMaterializationMode(storage) !== "off",
  };
}

/** {@link materializationMode} of a storage section. */
function storageMaterializationMode(
  storage: Pick<BrokerConfig["storage"], "materialization" | "objects">,
): MaterializationMode {
  return storage.materialization ?? (storage.objects.kind === "filesystem" ? "async" : "all");
}

/** The Object WAL linger when the configuration names none: 0 ms on the filesystem store, 5 ms on S3. */
export function defaultWalLingerMs(config: BrokerConfig): number {
  return config.storage.objects.kind === "filesystem" ? 0 : 5;
}
