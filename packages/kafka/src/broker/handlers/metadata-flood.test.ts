// A Metadata request naming 100,000 topics, through the handler over the in-memory metadata store: the broker
// answers every name, creates at most its auto-creation burst, keeps at most a few lookups in flight and its heap
// within a bound, with auto-creation on and off.
import type { KeyValue, OperationOptions } from "@nereus/core";
import { InMemoryMetadataStore, MemoryWalProvider } from "@nereus/core/testing";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness } from "../../../test/broker-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { KafkaKeyspace } from "../../topics/kafka-keys.js";
import type { RequestBody } from "../../protocol/supported-apis.js";
import { TOPICS_IN_FLIGHT_PER_REQUEST } from "../map-bounded.js";

const NAMES = 100_000;
const HEAP_BOUND_BYTES = 256 * 1024 * 1024;

/** The in-memory store, recording the most reads in flight at once and the largest heap seen at a read. */
class ObservedMetadataStore extends InMemoryMetadataStore {
  inFlight = 0;
  mostInFlight = 0;
  largestHeap = 0;

  override async get(key: string, options?: OperationOptions): Promise<KeyValue | undefined> {
    this.inFlight += 1;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    this.largestHeap = Math.max(this.largestHeap, process.memoryUsage().heapUsed);
    try {
      return await super.get(key, options);
    } finally {
      this.inFlight -= 1;
    }
  }
}

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

function flood(allowAutoTopicCreation: boolean): RequestBody<3> {
  return {
    topics: Array.from({ length: NAMES }, (_, index) => ({
      topicId: "00000000-0000-0000-0000-000000000000",
      name: `flood-${String(index)}`,
    })),
    allowAutoTopicCreation,
    includeClusterAuthorizedOperations: false,
    includeTopicAuthorizedOperations: false,
  };
}

function countByError(topics: ReadonlyArray<{ errorCode: number }>): Map<number, number> {
  const counts = new Map<number, number>();
  for (const topic of topics) counts.set(topic.errorCode, (counts.get(topic.errorCode) ?? 0) + 1);
  return counts;
}

describe("a Metadata request naming 100,000 topics", () => {
  test("with auto-creation: creates the burst, defers the rest of the cap, refuses the names above it", async () => {
    const metadata = new ObservedMetadataStore();
    // A stopped clock: the bucket does not refill during the request, so exactly its burst is created.
    harness = new BrokerHarness(
      { clock: () => 1_000 },
      {},
      { metadata, objectWal: new MemoryWalProvider({ walKind: "OBJECT" }) },
    );
    const client = harness.connect();
    const heapBefore = process.memoryUsage().heapUsed;
    const response = await client.request(3, 4, flood(true));
    expect(response.topics).toHaveLength(NAMES);
    expect(Object.fromEntries(countByError(response.topics))).toEqual({
      [KafkaErrorCode.NONE]: 100,
      [KafkaErrorCode.LEADER_NOT_AVAILABLE]: 10_000 - 100,
      [KafkaErrorCode.POLICY_VIOLATION]: NAMES - 10_000,
    });
    expect(response.topics.slice(0, 100).every((topic) => topic.errorCode === KafkaErrorCode.NONE)).toBe(true);
    expect(await harness.broker.topics.list()).toHaveLength(100);
    expect(metadata.mostInFlight).toBeLessThanOrEqual(TOPICS_IN_FLIGHT_PER_REQUEST);
    expect(metadata.largestHeap - heapBefore).toBeLessThan(HEAP_BOUND_BYTES);
    expect(harness.events.filter((event) => event.message === "Metadata request limited")).toHaveLength(1);
  });

  test("without auto-creation: every absent name is unknown and nothing is stored", async () => {
    const metadata = new ObservedMetadataStore();
    harness = new BrokerHarness(
      { maxTopicsPerMetadataRequest: NAMES },
      {},
      { metadata, objectWal: new MemoryWalProvider({ walKind: "OBJECT" }) },
    );
    const client = harness.connect();
    const heapBefore = process.memoryUsage().heapUsed;
    const response = await client.request(3, 4, flood(false));
    expect(Object.fromEntries(countByError(response.topics))).toEqual({
      [KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION]: NAMES,
    });
    const keyspace = new KafkaKeyspace(harness.cluster);
    expect((await metadata.scan(`${keyspace.prefix}/`, { limit: 10 })).items.map((item) => item.key)).toEqual([]);
    expect(metadata.mostInFlight).toBeLessThanOrEqual(TOPICS_IN_FLIGHT_PER_REQUEST);
    expect(metadata.largestHeap - heapBefore).toBeLessThan(HEAP_BOUND_BYTES);
  });
});
