// Test helpers for producers driven through in-process connections: message entries as a client frames them (one
// message, a batch, a chunk), PRODUCER with its answer, and SEND. Test-only.
import { type CommandBody, type CommandProducer, encodeMessageEntry } from "../src/protocol/index.js";
import type { TestClient } from "./broker-harness.js";

export const TOPIC = "persistent://public/default/orders";

export interface EntryShape {
  /** Messages in a batch (sets numMessagesInBatch and highestSequenceId = sequenceId + count - 1). */
  readonly batch?: number;
  /** This entry is chunk `id` of `of` chunks of one message. */
  readonly chunk?: { readonly id: number; readonly of: number };
}

/** A message entry of `producerName` with `sequenceId` and the payload `text`. */
export function messageEntry(
  producerName: string,
  sequenceId: bigint,
  text: string,
  shape: EntryShape = {},
): Uint8Array {
  const batch =
    shape.batch === undefined
      ? {}
      : { numMessagesInBatch: shape.batch, highestSequenceId: sequenceId + BigInt(shape.batch - 1) };
  const chunk =
    shape.chunk === undefined
      ? {}
      : { uuid: `${producerName}-${String(sequenceId)}`, chunkId: shape.chunk.id, numChunksFromMsg: shape.chunk.of };
  return encodeMessageEntry(
    { producerName, sequenceId, publishTime: 1_700_000_000_000n, ...batch, ...chunk },
    new TextEncoder().encode(text),
  );
}

/** Sends PRODUCER and waits for its first answer (PRODUCER_SUCCESS or ERROR with its request id). */
export async function openProducer(
  client: TestClient,
  body: Omit<CommandProducer, "topic"> & { readonly topic?: string },
): Promise<CommandBody<"PRODUCER_SUCCESS"> | CommandBody<"ERROR">> {
  client.send({ type: "PRODUCER", body: { topic: TOPIC, ...body } });
  let answer: CommandBody<"PRODUCER_SUCCESS"> | CommandBody<"ERROR"> | undefined;
  await client.waitUntil(() => {
    answer =
      client.commands("PRODUCER_SUCCESS").find((success) => success.requestId === body.requestId) ??
      client.commands("ERROR").find((error) => error.requestId === body.requestId);
    return answer !== undefined;
  });
  return answer!;
}

/** Sends one SEND of `entry` for `producerId` (`batch` messages, first sequence id `sequenceId`). */
export function sendEntry(
  client: TestClient,
  producerId: bigint,
  sequenceId: bigint,
  entry: Uint8Array,
  batch?: number,
): void {
  const counts = batch === undefined ? {} : { numMessages: batch, highestSequenceId: sequenceId + BigInt(batch - 1) };
  client.sendWithEntry({ type: "SEND", body: { producerId, sequenceId, ...counts } }, entry);
}

/** The SEND answers `client` received, as [type, sequence id] in order. */
export function sendAnswers(client: TestClient): [string, bigint][] {
  return client.received
    .map((frame) => frame.command)
    .filter((command) => command.type === "SEND_RECEIPT" || command.type === "SEND_ERROR")
    .map((command) => [command.type, (command.body as { sequenceId: bigint }).sequenceId]);
}
