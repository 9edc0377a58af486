// @platformatic/kafka 1.35.0 (a pure-JS client that speaks the flexible versions: ApiVersions v3+, Metadata v9+,
// Fetch v12+, JoinGroup v6+, OffsetCommit v8+ ...) against the Nereus broker on the embedded default: an idempotent
// producer with keys and headers, then a consumer group of two that reads everything back and commits, and a
// third consumer of the same group that finds nothing left after the commits.
//
// Client limitation: its consumer always puts the topic *id* into its Fetch requests. At Fetch v13+ that is the
// protocol's topic_id (UUID) field; at Fetch v12 its request writer puts the id's text into the topic *name* field
// (fetch-v12.js: `w.appendString(t.topicId)`), so a broker that caps Fetch at v12 (Nereus did, until it served topic
// ids in Fetch) correctly answers UNKNOWN_TOPIC_OR_PARTITION (3) for every partition and the stream fails with
// "fetch failed 4 times". Every Apache Kafka the client supports (3.5+) serves Fetch v13+, so it never shows there.
// With Fetch v13+ advertised the consumer test runs the full group read-back; below v13 it asserts exactly that
// failure (anything else fails the test).
import {
  Admin,
  Consumer,
  type Message,
  MessagesStreamFallbackModes,
  MessagesStreamModes,
  Producer,
  stringDeserializers,
  stringSerializers,
} from "@platformatic/kafka";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { type NereusBroker, probeKafka, startNereusBroker } from "../src/index.js";

const log = (line: string): void => {
  process.stdout.write(`[platformatic] ${line}\n`);
};

const TOPIC = "platformatic";
const GROUP = "platformatic-group";
const COUNT = 600;

/** Every leaf error of an AggregateError tree as `<api error id or name>: <message>`. */
function leafErrors(error: unknown): string[] {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.flatMap(leafErrors);
  if (error instanceof Error) {
    const apiId = (error as Error & { apiId?: unknown }).apiId;
    return [`${typeof apiId === "string" ? apiId : error.name}: ${error.message}`];
  }
  return [String(error)];
}

/** The messages of an AggregateError tree, outermost first. */
function messagesOf(error: unknown): string[] {
  if (!(error instanceof Error)) return [String(error)];
  return [error.message, ...(error instanceof AggregateError ? error.errors.flatMap(messagesOf) : [])];
}

function headersOf(i: number): Map<string, string> {
  return new Map([
    ["idx", String(i)],
    ["source", "platformatic"],
  ]);
}

describe("@platformatic/kafka 1.35.0 against the Nereus broker (embedded default)", () => {
  let broker: NereusBroker;
  let failed = false;

  beforeAll(async () => {
    broker = await startNereusBroker({ log });
  });

  afterAll(async () => {
    if (failed) log(`keeping ${broker.runDir} (logs and data of the failed test)`);
    await broker?.stop(failed);
  });

  it("idempotent producer (acks=all) with keys and headers; topic created by the Admin client", async () => {
    onTestFailed(() => {
      failed = true;
    });
    const admin = new Admin({ clientId: "nereus-platformatic-admin", bootstrapBrokers: [broker.bootstrap] });
    try {
      await admin.createTopics({ topics: [TOPIC], partitions: 2, replicas: 1 });
    } finally {
      await admin.close();
    }
    const producer = new Producer({
      clientId: "nereus-platformatic-producer",
      bootstrapBrokers: [broker.bootstrap],
      serializers: stringSerializers,
      idempotent: true,
      acks: -1,
    });
    const next = new Map<number, bigint>();
    try {
      for (let start = 0; start < COUNT; start += 100) {
        const messages = [];
        for (let i = start; i < start + 100; i++)
          messages.push({ topic: TOPIC, key: `key-${String(i)}`, value: `value-${String(i)}`, headers: headersOf(i) });
        const result = await producer.send({ messages });
        for (const { partition, offset } of result.offsets ?? []) next.set(partition, offset);
      }
    } finally {
      await producer.close();
    }
    log(
      `produced ${String(COUNT)} records; last base offsets ${JSON.stringify([...next].map(([p, o]) => [p, String(o)]))}`,
    );
    expect([...next.keys()].sort()).toEqual([0, 1]);
  });

  async function readWithGroup(): Promise<{ seen: Map<string, number>; bad: string[]; perMember: number[] }> {
    const bootstrapBrokers = [broker.bootstrap];
    const seen = new Map<string, number>();
    const bad: string[] = [];
    const perMember = [0, 0];
    const consumers = [0, 1].map(
      (member) =>
        new Consumer({
          clientId: `nereus-platformatic-consumer-${String(member)}`,
          groupId: GROUP,
          bootstrapBrokers,
          deserializers: stringDeserializers,
          sessionTimeout: 10_000,
          heartbeatInterval: 1_000,
          autocommit: false,
        }),
    );
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${String(seen.size)} of ${String(COUNT)} records within 60 s`)),
          60_000,
        );
        const fail = (error: unknown): void => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        };
        const onMessage = (member: number, message: Message<string, string, string, string>): void => {
          perMember[member] = (perMember[member] ?? 0) + 1;
          const i = Number(message.key.slice("key-".length));
          if (
            message.value !== `value-${String(i)}` ||
            message.headers.get("idx") !== String(i) ||
            message.headers.get("source") !== "platformatic"
          ) {
            bad.push(`${message.key}@${String(message.partition)}/${String(message.offset)}`);
          }
          seen.set(message.key, (seen.get(message.key) ?? 0) + 1);
          void Promise.resolve(message.commit()).catch(fail);
          if (seen.size === COUNT) {
            clearTimeout(timer);
            resolve();
          }
        };
        for (const [member, consumer] of consumers.entries()) {
          consumer
            .consume({
              topics: [TOPIC],
              mode: MessagesStreamModes.COMMITTED,
              fallbackMode: MessagesStreamFallbackModes.EARLIEST,
            })
            .then((stream) => {
              stream.on("data", (message: Message<string, string, string, string>) => onMessage(member, message));
              stream.on("error", fail);
            }, fail);
        }
      });
      // Let the last commits land before leaving.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      await Promise.allSettled(consumers.map((consumer) => consumer.close(true)));
    }
    return { seen, bad, perMember };
  }

  it("consumer group of two reads every record once with keys and headers and commits (or fails exactly as the known Fetch v12 gap)", async () => {
    onTestFailed(() => {
      failed = true;
    });
    const fetchMax = (await probeKafka("127.0.0.1", broker.port)).apis.get(1)?.max ?? -1;
    if (fetchMax < 13) {
      const error = await readWithGroup().then(
        () => undefined,
        (reason: unknown) => reason,
      );
      if (error === undefined)
        throw new Error(
          `the group read succeeded with Fetch capped at v${String(fetchMax)}: drop the known-gap branch`,
        );
      const leaves = leafErrors(error);
      log(
        `known gap (Nereus serves Fetch <= v${String(fetchMax)}): ${messagesOf(error).slice(0, 2).join(" / ")}; ${String(leaves.length)} partition errors, first: ${leaves[0] ?? "none"}`,
      );
      expect(messagesOf(error).some((m) => m.includes("Fetch(v12)"))).toBe(true);
      expect(leaves.length).toBeGreaterThan(0);
      for (const leaf of leaves) expect(leaf).toMatch(/^UNKNOWN_TOPIC_OR_PARTITION: /);
      return;
    }
    const { seen, bad, perMember } = await readWithGroup();
    const duplicates = [...seen.values()].filter((n) => n > 1).length;
    log(
      `group read ${String(seen.size)} distinct records (members ${perMember.join("/")}, ${String(duplicates)} duplicated, ${String(bad.length)} bad)`,
    );
    expect(bad).toEqual([]);
    expect(seen.size).toBe(COUNT);
    expect(duplicates).toBe(0);

    // A new member of the same group starts at the committed offsets: nothing is left to read.
    const late = new Consumer({
      clientId: "nereus-platformatic-late",
      groupId: GROUP,
      bootstrapBrokers: [broker.bootstrap],
      deserializers: stringDeserializers,
      autocommit: false,
    });
    try {
      const stream = await late.consume({
        topics: [TOPIC],
        mode: MessagesStreamModes.COMMITTED,
        fallbackMode: MessagesStreamFallbackModes.EARLIEST,
      });
      let extra = 0;
      stream.on("data", () => {
        extra += 1;
      });
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(extra, "records after the group's commits").toBe(0);
    } finally {
      await late.close(true);
    }
  });
});
