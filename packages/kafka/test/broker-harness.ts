// Test harness of the Kafka broker: a StreamStore over the in-memory metadata store and memory WALs (shared by
// "restarted" brokers, so a restart keeps the data), a broker over it, and a client that speaks through
// KafkaConnection.handleFrame with this package's request encoder and response decoder. Also builders of the
// request bodies tests send. Test-only.
import {
  type StreamStore,
  createStreamStore,
  StableHeadCoordinator,
  GenerationZeroVisibleCoordinator,
  type StreamStoreOptions,
} from "@nereus/core";
import { InMemoryMetadataStore, MemoryWalProvider } from "@nereus/core/testing";
import { createKafkaBroker, type KafkaBroker, type KafkaBrokerOptions } from "../src/broker/create-kafka-broker.js";
import type { KafkaBrokerLogger } from "../src/logging/broker-logger.js";
import type { KafkaConnection } from "../src/broker/kafka-connection.js";
import { decodeResponse, encodeRequest } from "../src/protocol/encode-request.js";
import { encodeRecordBatch, type RecordInput } from "../src/protocol/records/encode-record-batch.js";
import { recordBytes } from "../src/protocol/primitives/record-parts.js";
import type { RequestBody, ResponseBody, SupportedApiKey } from "../src/protocol/supported-apis.js";

const encoder = new TextEncoder();
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** One captured log event. */
export interface LogEvent {
  readonly level: "debug" | "info" | "warn" | "error";
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>> | undefined;
}

/** A logger that keeps every event. */
export function capturingLogger(events: LogEvent[]): KafkaBrokerLogger {
  const at =
    (level: LogEvent["level"]) =>
    (message: string, fields?: Readonly<Record<string, unknown>>): void => {
      events.push({ level, message, fields });
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** One broker "process" over shared durable state. */
export class BrokerHarness {
  readonly metadata: InMemoryMetadataStore;
  readonly objectWal: MemoryWalProvider;
  readonly cluster = "kafka-test";
  readonly events: LogEvent[] = [];
  store!: StreamStore;
  broker!: KafkaBroker;
  readonly #brokerOptions: Partial<KafkaBrokerOptions>;
  readonly #storeOptions: Partial<StreamStoreOptions>;

  constructor(
    brokerOptions: Partial<KafkaBrokerOptions> = {},
    storeOptions: Partial<StreamStoreOptions> = {},
    shared?: { metadata: InMemoryMetadataStore; objectWal: MemoryWalProvider },
  ) {
    this.metadata = shared?.metadata ?? new InMemoryMetadataStore();
    this.objectWal = shared?.objectWal ?? new MemoryWalProvider({ walKind: "OBJECT" });
    this.#brokerOptions = brokerOptions;
    this.#storeOptions = storeOptions;
    this.#open();
  }

  #open(): void {
    this.store = createStreamStore({
      metadata: this.metadata,
      cluster: this.cluster,
      writerId: "kafka-broker-test",
      walWriters: [this.objectWal],
      walReaders: [this.objectWal],
      completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
      ...this.#storeOptions,
    });
    this.broker = createKafkaBroker({
      store: this.store,
      metadata: this.metadata,
      cluster: this.cluster,
      nodeId: 1,
      advertisedHost: "127.0.0.1",
      advertisedPort: 9092,
      logger: capturingLogger(this.events),
      ...this.#brokerOptions,
    });
  }

  /** A new client on a new connection. */
  connect(): TestClient {
    return new TestClient(this.broker.openConnection("test-peer"));
  }

  /** Closes broker and store and opens new ones on the same metadata and WAL (a process restart). */
  async restart(): Promise<void> {
    await this.broker.close();
    await this.store.close();
    this.#open();
  }

  /** Error-level log events (handlers must never fail). */
  errors(): LogEvent[] {
    return this.events.filter((event) => event.level === "error");
  }

  async close(): Promise<void> {
    await this.broker.close();
    await this.store.close();
  }
}

/** A client on one connection. */
export class TestClient {
  readonly connection: KafkaConnection;
  #correlationId = 0;

  constructor(connection: KafkaConnection) {
    this.connection = connection;
  }

  /** Sends one request; resolves with the decoded response body (undefined when none came). */
  send<K extends SupportedApiKey>(
    apiKey: K,
    apiVersion: number,
    body: RequestBody<K>,
  ): Promise<ResponseBody<K> | undefined> {
    const correlationId = ++this.#correlationId;
    const frame = encodeRequest({ apiKey, apiVersion, correlationId, clientId: "test-client" }, body).subarray(4);
    return this.connection.handleFrame(frame).then((response) => {
      if (response === undefined) return undefined;
      const decoded = decodeResponse({ apiKey, apiVersion }, response.subarray(4));
      if (decoded.header.correlationId !== correlationId)
        throw new Error(`correlation id ${String(decoded.header.correlationId)} != ${String(correlationId)}`);
      return decoded.body;
    });
  }

  /** Like send, but a missing response is an error. */
  async request<K extends SupportedApiKey>(
    apiKey: K,
    apiVersion: number,
    body: RequestBody<K>,
  ): Promise<ResponseBody<K>> {
    const response = await this.send(apiKey, apiVersion, body);
    if (response === undefined) throw new Error("no response");
    return response;
  }

  async createTopic(name: string, partitions = 1, configs: Record<string, string> = {}): Promise<ResponseBody<19>> {
    return this.request(19, 7, createTopicsBody([{ name, partitions, configs }]));
  }

  /** Produces one batch; resolves with the partition result. */
  async produce(
    topic: string,
    partition: number,
    batch: Uint8Array,
    options: { acks?: number; version?: number } = {},
  ) {
    const response = await this.send(0, options.version ?? 9, produceBody(topic, partition, batch, options.acks ?? -1));
    return response?.responses[0]?.partitionResponses[0];
  }

  /** Fetches one partition; resolves with the partition data (records decoded, so always one array or null). */
  async fetch(topic: string, partition: number, offset: number, options: Partial<FetchOptions> = {}) {
    const response = await this.request(
      1,
      options.version ?? 12,
      fetchBody([{ topic, partition, offset, partitionMaxBytes: options.partitionMaxBytes }], options),
    );
    const data = response.responses[0]?.partitions[0];
    return data === undefined
      ? undefined
      : { ...data, records: data.records === null ? null : recordBytes(data.records) };
  }

  async listOffset(topic: string, partition: number, timestamp: number, version = 7) {
    const response = await this.request(2, version, {
      replicaId: -1,
      isolationLevel: 0,
      topics: [
        {
          name: topic,
          partitions: [{ partitionIndex: partition, currentLeaderEpoch: -1, timestamp, maxNumOffsets: 1 }],
        },
      ],
      timeoutMs: 1000,
    });
    return response.topics[0]?.partitions[0];
  }
}

export function createTopicsBody(
  topics: ReadonlyArray<{
    name: string;
    partitions?: number;
    replicationFactor?: number;
    configs?: Record<string, string>;
  }>,
  validateOnly = false,
): RequestBody<19> {
  return {
    topics: topics.map((topic) => ({
      name: topic.name,
      numPartitions: topic.partitions ?? 1,
      replicationFactor: topic.replicationFactor ?? 1,
      assignments: [],
      configs: Object.entries(topic.configs ?? {}).map(([name, value]) => ({ name, value })),
    })),
    timeoutMs: 5000,
    validateOnly,
  };
}

export function produceBody(topic: string, partition: number, batch: Uint8Array | null, acks = -1): RequestBody<0> {
  return {
    transactionalId: null,
    acks,
    timeoutMs: 5000,
    topicData: [{ name: topic, partitionData: [{ index: partition, records: batch }] }],
  };
}

export interface FetchOptions {
  readonly version: number;
  readonly maxWaitMs: number;
  readonly minBytes: number;
  readonly maxBytes: number;
  readonly partitionMaxBytes: number;
  readonly isolationLevel: number;
}

export function fetchBody(
  partitions: ReadonlyArray<{
    topic: string;
    partition: number;
    offset: number;
    partitionMaxBytes?: number | undefined;
  }>,
  options: Partial<FetchOptions> = {},
): RequestBody<1> {
  const topics = new Map<
    string,
    Array<{ partition: number; offset: number; partitionMaxBytes?: number | undefined }>
  >();
  for (const entry of partitions) topics.set(entry.topic, [...(topics.get(entry.topic) ?? []), entry]);
  return {
    clusterId: null,
    replicaId: -1,
    replicaState: { replicaId: -1, replicaEpoch: -1 },
    maxWaitMs: options.maxWaitMs ?? 0,
    minBytes: options.minBytes ?? 1,
    maxBytes: options.maxBytes ?? 50 * 1024 * 1024,
    isolationLevel: options.isolationLevel ?? 0,
    sessionId: 0,
    sessionEpoch: -1,
    topics: [...topics].map(([topic, entries]) => ({
      topic,
      topicId: "00000000-0000-0000-0000-000000000000",
      partitions: entries.map((entry) => ({
        partition: entry.partition,
        currentLeaderEpoch: -1,
        fetchOffset: entry.offset,
        lastFetchedEpoch: -1,
        logStartOffset: -1,
        partitionMaxBytes: entry.partitionMaxBytes ?? 1024 * 1024,
        replicaDirectoryId: "00000000-0000-0000-0000-000000000000",
      })),
    })),
    forgottenTopicsData: [],
    rackId: "",
  };
}

/** A producer-style batch (base offset 0, leader epoch -1) of `values`. */
export function batchOf(
  values: readonly string[],
  options: {
    producerId?: bigint;
    producerEpoch?: number;
    baseSequence?: number;
    baseTimestamp?: number;
    timestampStep?: number;
  } = {},
): Uint8Array {
  const records: RecordInput[] = values.map((value, index) => ({
    key: utf8(`k${String(index)}`),
    value: utf8(value),
    timestampDelta: index * (options.timestampStep ?? 0),
  }));
  return encodeRecordBatch({
    baseTimestamp: options.baseTimestamp ?? Date.now(),
    records,
    producerId: options.producerId,
    producerEpoch: options.producerEpoch,
    baseSequence: options.baseSequence,
  });
}
