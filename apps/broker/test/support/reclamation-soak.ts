// The retention soak of storage reclamation, shared by the benchmark (bench/reclamation-soak.ts, full size) and its
// short CI version (test/reclamation-soak.integration.test.ts): one in-process broker, one topic of P partitions with
// a 1-minute retention.ms, produced at a steady rate with kafkajs (acks=-1, incompressible records) while the
// retention sweep trims and the collectors delete; then the retention window is frozen (retention.ms raised once the
// last sweep ran), the collectors finish their pass, and the figures are taken from outside the broker:
//   retained  Σ over partitions (high watermark − log start) × record bytes — the payload still readable;
//   stored    embedded: every file of the data directory (segments, objects, SQLite and its -wal);
//             cluster: the S3 LIST sum under the cluster's prefix;
//             bookkeeper: the S3 LIST sum plus the lengths of the cluster's ledgers in BookKeeper (sealed at close);
//   metadata  keys under the cluster's prefix (after close), per partition: the stream keys of the busiest partition
//             (its journal counted apart) and all keys (streams, physical roots and protections, topic records)
//             divided by P.
// The bounds the figures are checked against are stated with them (`soakBounds`).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type BookKeeperClient, createBookKeeperClient } from "@nereus/bookkeeper";
import type { MetadataStore } from "@nereus/core";
import { clusterPrefix } from "@nereus/core/internal";
import { createEtcdMetadataStore, createSqliteMetadataStore } from "@nereus/metadata";
import { loadServices } from "@nereus/test-services";
import kafkajs, { type Kafka } from "kafkajs";
import type { BrokerConfigInput } from "../../src/index.js";
import { BrokerConfigSchema } from "../../src/config/broker-config.js";
import { PinoBrokerLogger } from "../../src/logging/broker-logger.js";
import { startBroker } from "../../src/start-broker.js";
import { storedObjects } from "./stored-objects.js";

/** The storage a soak runs on. */
export type SoakStorage = "embedded" | "cluster" | "bookkeeper";

interface SoakOptions {
  readonly storage: SoakStorage;
  readonly partitions: number;
  /** Payload bytes produced in total. */
  readonly producedBytes: number;
  /** Production time: the rate is producedBytes / produceSeconds. */
  readonly produceSeconds: number;
  readonly retentionMs: number;
  readonly recordBytes: number;
  /** The collectors' grace period and minimum age. */
  readonly graceMs: number;
  /** BookKeeper ledger rollover size (bookkeeper storage only). */
  readonly ledgerBytes: number;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
}

interface SoakFigures {
  readonly storage: SoakStorage;
  readonly partitions: number;
  readonly retentionMs: number;
  readonly producedBytes: number;
  readonly produceSeconds: number;
  /** How long production took (longer than produceSeconds when the broker could not keep the rate). */
  readonly producedInSeconds: number;
  readonly retainedBytes: number;
  /** Retained records read back after the collectors' pass (each of recordBytes). */
  readonly recordsReadBack: number;
  readonly storedBytes: number;
  /** Where the stored bytes are, by part. */
  readonly storedParts: Readonly<Record<string, number>>;
  readonly overheadBytes: number;
  readonly boundBytes: number;
  readonly metadataKeys: number;
  readonly metadataKeysPerPartition: number;
  readonly maxStreamKeys: number;
  /** The busiest stream's keys by kind (path segment under the stream). */
  readonly maxStreamKinds: Readonly<Record<string, number>>;
  readonly metadataKeyBound: number;
  readonly settleSeconds: number;
}

// kafkajs is CommonJS: its named exports come from the default export when this runs as ESM under tsx.
const { ConfigResourceTypes, Kafka: KafkaClient, logLevel } = kafkajs;
const RETENTION_CHECK_MS = 1_000;
const TICK_MS = 250;
const SENDS_PER_TICK = 4;
const FROZEN_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * The bounds a soak's figures must meet. Stored bytes ≤ 1.2 × retained + overhead, where the overhead is fixed per
 * storage kind and partition count:
 *   embedded   64 MiB (SQLite and its -wal, the active segment and one segment under compaction) + 1 MiB per
 *              partition (as cluster);
 *   cluster    1 MiB per partition: the generation object that straddles the log start is kept whole, and WAL
 *              objects shared with partitions whose generations have not caught up yet stay beside the generations;
 *   bookkeeper one ledger per partition (the ledger holding the log start is kept whole) + 256 KiB per partition.
 * Metadata keys of one partition's stream, its reclamation journal aside, ≤ 3 per retained commit (intent, replay
 * marker, generation-0 entry) + 64 (head, writer and materialization state, generation entries). The journal holds
 * the objects and ledgers in flight plus the tombstones of those deleted within the tombstone period (1 h): it is
 * reported beside the bound, by kind.
 */
function soakBounds(
  options: Pick<SoakOptions, "storage" | "partitions" | "ledgerBytes">,
  retainedBytes: number,
  retainedCommits: number,
): { readonly overheadBytes: number; readonly boundBytes: number; readonly metadataKeyBound: number } {
  const perPartition = options.storage === "bookkeeper" ? 256 * 1024 : 1024 * 1024;
  const fixed =
    options.storage === "embedded"
      ? 64 * 1024 * 1024
      : options.storage === "bookkeeper"
        ? options.partitions * options.ledgerBytes
        : 0;
  const overheadBytes = fixed + options.partitions * perPartition;
  return {
    overheadBytes,
    boundBytes: Math.ceil(1.2 * retainedBytes) + overheadBytes,
    metadataKeyBound: 3 * retainedCommits + 64,
  };
}

/** Runs one soak (see the module comment) and returns its figures. */
export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const log = options.log ?? (() => undefined);
  const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "nereus-soak-"));
  try {
    return await soakIn(dataDir, options, log);
  } finally {
    await fs.promises.rm(dataDir, { recursive: true, force: true });
  }
}

async function soakIn(dataDir: string, options: SoakOptions, log: (line: string) => void): Promise<SoakFigures> {
  const config = soakConfig(options, dataDir, await freePort());
  const parsed = BrokerConfigSchema.parse(config);
  const broker = await startBroker(parsed, { logger: new PinoBrokerLogger({ level: parsed.log.level }) });
  const cluster = parsed.cluster;
  const kafka = new KafkaClient({
    clientId: "reclamation-soak",
    brokers: [`127.0.0.1:${String(broker.kafkaPort)}`],
    logLevel: logLevel.NOTHING,
    retry: { retries: 8, initialRetryTime: 100 },
  });
  const admin = kafka.admin();
  await admin.connect();
  const topic = `soak-${randomBytes(4).toString("hex")}`;
  let settleSeconds: number;
  let producedInSeconds: number;
  let readBack: number;
  let retainedBytes: number;
  try {
    await admin.createTopics({
      topics: [
        {
          topic,
          numPartitions: options.partitions,
          configEntries: [{ name: "retention.ms", value: String(options.retentionMs) }],
        },
      ],
      waitForLeaders: true,
    });
    const produceStarted = Date.now();
    await produceSteadily(kafka, topic, options, log);
    producedInSeconds = (Date.now() - produceStarted) / 1000;
    // The last sweep of the window, then the window is frozen: what is retained now stays retained.
    await new Promise((resolve) => setTimeout(resolve, 2 * RETENTION_CHECK_MS));
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: topic,
          configEntries: [{ name: "retention.ms", value: String(FROZEN_RETENTION_MS) }],
        },
      ],
    });
    const settleStarted = Date.now();
    await settle(config, options, log);
    settleSeconds = (Date.now() - settleStarted) / 1000;
    // A sweep that read the old retention.ms before the change goes on trimming partition by partition until it
    // ends, so the retained bytes are taken after the pass; every one of them must read back.
    retainedBytes = await retained(admin, topic, options.recordBytes);
    readBack = await readBackAll(kafka, admin, topic, options.recordBytes);
    if (readBack !== retainedBytes / options.recordBytes)
      throw new Error(`${String(readBack)} records read back, ${String(retainedBytes / options.recordBytes)} retained`);
  } finally {
    await admin.disconnect();
    await broker.close();
  }
  const storedParts = await stored(config, options.storage, cluster);
  const storedBytes = Object.values(storedParts).reduce((sum, bytes) => sum + bytes, 0);
  const keys = await metadataKeys(config, options.storage, cluster);
  const bounds = soakBounds(options, retainedBytes, keys.maxStreamCommits);
  return {
    storage: options.storage,
    partitions: options.partitions,
    retentionMs: options.retentionMs,
    producedBytes: options.producedBytes,
    produceSeconds: options.produceSeconds,
    producedInSeconds,
    retainedBytes,
    recordsReadBack: readBack,
    storedBytes,
    storedParts,
    ...bounds,
    metadataKeys: keys.total,
    metadataKeysPerPartition: keys.total / options.partitions,
    maxStreamKeys: keys.maxStreamKeys,
    maxStreamKinds: keys.busiestKinds,
    settleSeconds,
  };
}

function soakConfig(options: SoakOptions, dataDir: string, kafkaPort: number): BrokerConfigInput {
  const cluster = `soak${randomBytes(5).toString("hex")}`;
  const reclamation = {
    graceMs: options.graceMs,
    minObjectAgeMs: options.graceMs,
    intervalMs: 2_000,
    sweepIntervalMs: 60_000,
  };
  const storage: NonNullable<BrokerConfigInput["storage"]> = { reclamation };
  if (options.storage !== "embedded") {
    const services = loadServices();
    storage.metadata = { kind: "etcd", endpoints: [services.etcd.endpoint] };
    storage.objects = {
      kind: "s3",
      endpoint: services.s3.endpoint,
      region: services.s3.region,
      bucket: services.s3.bucket,
      accessKeyId: services.s3.accessKeyId,
      secretAccessKey: services.s3.secretAccessKey,
      forcePathStyle: true,
      keyPrefix: `${cluster}/`,
    };
  }
  if (options.storage === "bookkeeper") {
    const { zookeeper, bookkeeper } = loadServices();
    if (zookeeper === undefined || bookkeeper === undefined) throw new Error("the services run no BookKeeper");
    storage.defaultProfile = "BOOKKEEPER_WAL_ONLY";
    storage.bookkeeper = {
      zooKeeper: zookeeper.connectString,
      ledgersRoot: bookkeeper.zkLedgersRoot,
      password: "soak",
      ledgerRollover: { maxBytes: options.ledgerBytes, maxAgeMs: Math.max(1_000, options.retentionMs / 4) },
    };
  }
  return {
    dataDir,
    cluster,
    kafka: { port: kafkaPort },
    pulsar: { port: 0 },
    admin: { port: 0 },
    log: { level: "warn" },
    topics: { retentionCheckIntervalMs: RETENTION_CHECK_MS },
    storage,
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no free port");
  return address.port;
}

/** Produces `producedBytes` over `produceSeconds` in ticks, every partition in every tick. */
async function produceSteadily(
  kafka: Kafka,
  topic: string,
  options: SoakOptions,
  log: (line: string) => void,
): Promise<void> {
  const pool = randomBytes(8 * 1024 * 1024);
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const totalRecords = Math.ceil(options.producedBytes / options.recordBytes);
  const ticks = Math.max(1, Math.round((options.produceSeconds * 1000) / TICK_MS));
  const started = Date.now();
  let sent = 0;
  try {
    for (let tick = 0; tick < ticks && sent < totalRecords; tick++) {
      const due = started + tick * TICK_MS;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const goal = Math.min(totalRecords, Math.round(((tick + 1) * totalRecords) / ticks));
      const messages: { partition: number; value: Buffer }[] = [];
      for (let index = sent; index < goal; index++) {
        const at = Math.floor(Math.random() * (pool.length - options.recordBytes));
        messages.push({ partition: index % options.partitions, value: pool.subarray(at, at + options.recordBytes) });
      }
      // Partitions in SENDS_PER_TICK groups, sent at once (one request in flight per group).
      await Promise.all(
        Array.from({ length: SENDS_PER_TICK }, (_, group) =>
          messages.filter((message) => message.partition % SENDS_PER_TICK === group),
        )
          .filter((group) => group.length > 0)
          .map((group) => producer.send({ topic, acks: -1, messages: group })),
      );
      sent = goal;
      if (tick % Math.max(1, Math.round(10_000 / TICK_MS)) === 0) {
        log(
          `  produced ${((sent * options.recordBytes) / 1024 / 1024).toFixed(0)} MiB in ${String(Math.round((Date.now() - started) / 1000))} s`,
        );
      }
    }
  } finally {
    await producer.disconnect();
  }
  log(
    `  produced ${((sent * options.recordBytes) / 1024 / 1024).toFixed(0)} MiB in ${String(Math.round((Date.now() - started) / 1000))} s`,
  );
}

/** Reads every partition of `topic` from its log start to its high watermark; the records read (sizes checked). */
async function readBackAll(
  kafka: Kafka,
  admin: ReturnType<Kafka["admin"]>,
  topic: string,
  recordBytes: number,
): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(topic);
  const expected = offsets.reduce((sum, partition) => sum + Number(partition.high) - Number(partition.low), 0);
  const consumer = kafka.consumer({ groupId: `soak-${randomBytes(4).toString("hex")}`, maxWaitTimeInMs: 200 });
  let read = 0;
  let wrongSize = 0;
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          read += 1;
          if (message.value?.length !== recordBytes) wrongSize += 1;
        }
      },
    });
    const deadline = Date.now() + 300_000;
    while (read < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    await consumer.disconnect();
  }
  if (wrongSize > 0) throw new Error(`${String(wrongSize)} records read back with a wrong size`);
  return read;
}

async function retained(admin: ReturnType<Kafka["admin"]>, topic: string, recordBytes: number): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(topic);
  return offsets.reduce((sum, partition) => sum + (Number(partition.high) - Number(partition.low)) * recordBytes, 0);
}

/**
 * Waits for the collectors to finish their pass: at least two follow-up periods, then until the stored bytes stop
 * falling for three polls in a row (bounded).
 */
async function settle(config: BrokerConfigInput, options: SoakOptions, log: (line: string) => void): Promise<void> {
  const period = 2 * options.graceMs + 1_500;
  await new Promise((resolve) => setTimeout(resolve, 2 * period));
  const deadline = Date.now() + 10 * period + 60_000;
  let last = Number.POSITIVE_INFINITY;
  let steady = 0;
  while (steady < 3 && Date.now() < deadline) {
    const now = Object.values(await stored(config, options.storage, String(config.cluster))).reduce((a, b) => a + b, 0);
    steady = now >= last ? steady + 1 : 0;
    last = Math.min(last, now);
    log(`  settling: ${(now / 1024 / 1024).toFixed(1)} MiB stored`);
    await new Promise((resolve) => setTimeout(resolve, period));
  }
}

async function stored(
  config: BrokerConfigInput,
  storage: SoakStorage,
  cluster: string,
): Promise<Record<string, number>> {
  if (storage === "embedded") {
    const dataDir = await directoryBytes(String(config.dataDir));
    const objects = await directoryBytes(path.join(String(config.dataDir), "objects"));
    return { objects, metadataAndOther: dataDir - objects };
  }
  const parts: Record<string, number> = {};
  for (const [key, size] of await storedObjects(config)) {
    const part = key.includes("/generations/v1/") ? "s3Generations" : key.includes("/wal/v1/") ? "s3Wal" : "s3Other";
    parts[part] = (parts[part] ?? 0) + size;
  }
  if (storage === "bookkeeper") parts["ledgers"] = await ledgerBytes(cluster);
  return parts;
}

async function directoryBytes(root: string): Promise<number> {
  let total = 0;
  const entries = await fs.promises.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const stats = await fs.promises.stat(path.join(entry.parentPath, entry.name)).catch(() => undefined);
    total += stats?.size ?? 0;
  }
  return total;
}

/** Payload bytes of the ledgers BookKeeper holds for `cluster` (all sealed once the broker closed). */
async function ledgerBytes(cluster: string): Promise<number> {
  const { zookeeper, bookkeeper } = loadServices();
  if (zookeeper === undefined || bookkeeper === undefined) throw new Error("the services run no BookKeeper");
  const client: BookKeeperClient = createBookKeeperClient({
    zooKeeperConnectString: zookeeper.connectString,
    ledgersRoot: bookkeeper.zkLedgersRoot,
  });
  const decoder = new TextDecoder();
  let total = 0;
  try {
    for await (const ledgerId of client.listLedgerIds()) {
      const found = await client.getLedgerMetadata(ledgerId);
      const owner = found?.metadata.customMetadata["nereus.cluster"];
      if (found !== undefined && owner !== undefined && decoder.decode(owner) === cluster)
        total += found.metadata.length;
    }
  } finally {
    await client.close();
  }
  return total;
}

/** Keys under the cluster's prefix; the busiest stream's keys and its stored commit intents. */
async function metadataKeys(
  config: BrokerConfigInput,
  storage: SoakStorage,
  cluster: string,
): Promise<{
  total: number;
  maxStreamKeys: number;
  maxStreamCommits: number;
  busiestKinds: Record<string, number>;
}> {
  const metadata: MetadataStore =
    storage === "embedded"
      ? await createSqliteMetadataStore({ path: path.resolve(String(config.dataDir), "metadata.sqlite") })
      : await createEtcdMetadataStore({ endpoints: [loadServices().etcd.endpoint] });
  const prefix = `${clusterPrefix(cluster)}/`;
  const perStream = new Map<string, { keys: number; commits: number; kinds: Map<string, number> }>();
  let total = 0;
  try {
    let after: string | undefined;
    for (;;) {
      const page = await metadata.scan(prefix, { limit: 1_000, ...(after === undefined ? {} : { startAfter: after }) });
      for (const kv of page.items) {
        total += 1;
        const rest = kv.key.slice(prefix.length).split("/");
        if (rest[0] !== "streams" || rest[1] === undefined) continue;
        const counts = perStream.get(rest[1]) ?? { keys: 0, commits: 0, kinds: new Map<string, number>() };
        if (rest[2] !== "reclamation") counts.keys += 1;
        const kind = rest.slice(2, rest[2] === "reclamation" ? 5 : 3).join("/");
        counts.kinds.set(kind, (counts.kinds.get(kind) ?? 0) + 1);
        if (rest[2] === "commit-log") counts.commits += 1;
        perStream.set(rest[1], counts);
      }
      const last = page.items.at(-1);
      if (!page.more || last === undefined) break;
      after = last.key;
    }
  } finally {
    await metadata.close();
  }
  const busiest = [...perStream.values()].sort((a, b) => b.keys - a.keys)[0];
  return {
    total,
    maxStreamKeys: busiest?.keys ?? 0,
    maxStreamCommits: busiest?.commits ?? 0,
    busiestKinds: Object.fromEntries(busiest?.kinds ?? []),
  };
}

/** The figures as printable lines. */
export function describeSoak(figures: SoakFigures): string[] {
  const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  const parts = Object.entries(figures.storedParts)
    .map(([part, bytes]) => `${part} ${mib(bytes)}`)
    .join(", ");
  return [
    `${figures.storage}: ${String(figures.partitions)} partitions, ${mib(figures.producedBytes)} produced in ${figures.producedInSeconds.toFixed(0)} s (planned ${String(figures.produceSeconds)} s), retention.ms ${String(figures.retentionMs)}`,
    `  retained ${mib(figures.retainedBytes)}; stored ${mib(figures.storedBytes)} (${parts}); ratio ${(figures.storedBytes / Math.max(1, figures.retainedBytes)).toFixed(3)}`,
    `  bound 1.2 × retained + ${mib(figures.overheadBytes)} overhead = ${mib(figures.boundBytes)}: ${figures.storedBytes <= figures.boundBytes ? "met" : "EXCEEDED"}`,
    `  metadata keys ${String(figures.metadataKeys)} (${figures.metadataKeysPerPartition.toFixed(1)} per partition); busiest stream ${String(figures.maxStreamKeys)} keys, bound ${String(figures.metadataKeyBound)}: ${figures.maxStreamKeys <= figures.metadataKeyBound ? "met" : "EXCEEDED"} ${JSON.stringify(figures.maxStreamKinds)}`,
    `  ${String(figures.recordsReadBack)} retained records read back after the pass`,
    `  collectors settled in ${figures.settleSeconds.toFixed(0)} s after production`,
  ];
}
