// The data the admin API, `nereus admin` and console tests look at: a 3-partition topic with a known number of
// records per partition (written by the producer the test brings: kcat or kafkajs), a kafkajs consumer group that
// read all of them and committed, then more records the group has not read — so each partition has a known end
// offset, committed offset and lag.
import { randomBytes } from "node:crypto";
import { type Kafka } from "kafkajs";
import { expect } from "vitest";
import { runCommand } from "./support/run-command.js";

/** Records per partition before the group reads, and after (the difference is the lag). */
export const FIRST_RECORDS: readonly number[] = [10, 12, 8];
export const MORE_RECORDS: readonly number[] = [2, 0, 4];
/** The group's lag over all partitions once the scenario ran. */
export const TOTAL_LAG = MORE_RECORDS.reduce((sum, count) => sum + count, 0);

/** Writes `count` records to `partition` of `topic`. */
export type ProduceTo = (topic: string, partition: number, count: number, round: string) => Promise<void>;

/** What the scenario left: per partition, the end offset and the group's committed offset. */
export interface Scenario {
  readonly topic: string;
  readonly group: string;
  readonly endOffsets: readonly number[];
  readonly committedOffsets: readonly number[];
}

/** The record values a round writes to a partition ("<round>-<partition>-<n>"). */
export function recordLines(partition: number, count: number, round: string): string {
  return Array.from(
    { length: count },
    (_, index) => `k${String(index)}\t${round}-${String(partition)}-${String(index)}\n`,
  ).join("");
}

/** kcat writing `count` keyed records to one partition (acks=all). */
export function kcatProducer(bootstrap: string): ProduceTo {
  return async (topic, partition, count, round) => {
    const result = await runCommand(
      "kcat",
      ["-b", bootstrap, "-P", "-t", topic, "-p", String(partition), "-K", "\t", "-X", "acks=all"],
      { input: recordLines(partition, count, round), timeoutMs: 120_000 },
    );
    expect(result.stderr).not.toMatch(/fail|error/i);
    expect(result.code).toBe(0);
  };
}

async function consumeAllAndCommit(kafka: Kafka, topic: string, group: string, expected: number): Promise<void> {
  const consumer = kafka.consumer({
    groupId: group,
    maxWaitTimeInMs: 200,
    sessionTimeout: 10_000,
    heartbeatInterval: 500,
  });
  const next = new Map<number, number>();
  let received = 0;
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        next.set(partition, Number(message.offset) + 1);
        received += 1;
      },
    });
    const deadline = Date.now() + 60_000;
    while (received < expected) {
      if (Date.now() > deadline) throw new Error(`the group read ${String(received)} of ${String(expected)} records`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await consumer.commitOffsets(
      [...next.entries()].map(([partition, offset]) => ({ topic, partition, offset: String(offset) })),
    );
  } finally {
    await consumer.disconnect();
  }
}

/** Creates the topic, writes FIRST_RECORDS, lets a new group read and commit them all, then writes MORE_RECORDS. */
export async function seedTopicAndGroup(kafka: Kafka, produce: ProduceTo, prefix: string): Promise<Scenario> {
  const suffix = randomBytes(3).toString("hex");
  const topic = `${prefix}-orders-${suffix}`;
  const group = `${prefix}-billing-${suffix}`;
  const admin = kafka.admin();
  await admin.connect();
  try {
    expect(
      await admin.createTopics({ topics: [{ topic, numPartitions: FIRST_RECORDS.length }], waitForLeaders: true }),
    ).toBe(true);
  } finally {
    await admin.disconnect();
  }
  for (const [partition, count] of FIRST_RECORDS.entries()) await produce(topic, partition, count, "first");
  await consumeAllAndCommit(
    kafka,
    topic,
    group,
    FIRST_RECORDS.reduce((sum, count) => sum + count, 0),
  );
  for (const [partition, count] of MORE_RECORDS.entries())
    if (count > 0) await produce(topic, partition, count, "more");
  return {
    topic,
    group,
    endOffsets: FIRST_RECORDS.map((count, partition) => count + MORE_RECORDS[partition]!),
    committedOffsets: [...FIRST_RECORDS],
  };
}
