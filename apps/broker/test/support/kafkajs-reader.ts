// What the kafkajs integration tests share: a bounded wait for a condition, and a consumer group member that reads a
// topic from the beginning and keeps "offset:value" of every record it gets, in order.
import { randomBytes } from "node:crypto";
import type { Consumer, Kafka } from "kafkajs";

/** Polls `condition` every 50 ms; throws naming `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A new group's consumer of `topic` from the beginning; disconnect it with `consumer.disconnect()`. */
export async function readFromBeginning(kafka: Kafka, topic: string): Promise<{ readonly consumer: Consumer; readonly received: string[] }> {
  const received: string[] = [];
  const consumer = kafka.consumer({ groupId: `group-${randomBytes(4).toString("hex")}`, maxWaitTimeInMs: 200 });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      received.push(`${message.offset}:${message.value?.toString() ?? ""}`);
    },
  });
  return { consumer, received };
}
