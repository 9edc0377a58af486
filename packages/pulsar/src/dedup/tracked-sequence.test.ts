// What deduplication tracks of an entry: producer, first and last sequence ids of messages and batches; nothing of
// markers, of the chunks before a message's last one, or of entries without a producer name.
import { describe, expect, test } from "vitest";
import { parseEntryMetadata } from "../entries/entry-metadata.js";
import { type MessageMetadata, encodeMessageEntry } from "../protocol/index.js";
import { trackedSequenceOf } from "./tracked-sequence.js";

function tracked(metadata: Partial<MessageMetadata>): ReturnType<typeof trackedSequenceOf> {
  const entry = encodeMessageEntry(
    { producerName: "p", sequenceId: 5n, publishTime: 1n, ...metadata },
    new Uint8Array([1]),
  );
  return trackedSequenceOf(parseEntryMetadata(entry));
}

describe("trackedSequenceOf", () => {
  test("a message and a batch: the producer, the first and the last sequence id", () => {
    expect(tracked({})).toEqual({ producerName: "p", sequenceId: 5n, lastSequenceId: 5n });
    expect(tracked({ numMessagesInBatch: 3, highestSequenceId: 7n })).toEqual({
      producerName: "p",
      sequenceId: 5n,
      lastSequenceId: 7n,
    });
  });

  test("the last chunk of a chunked message is tracked, the chunks before it are not", () => {
    const chunk = (chunkId: number): Partial<MessageMetadata> => ({ uuid: "u", numChunksFromMsg: 3, chunkId });
    expect(tracked(chunk(0))).toBeUndefined();
    expect(tracked(chunk(1))).toBeUndefined();
    expect(tracked(chunk(2))).toEqual({ producerName: "p", sequenceId: 5n, lastSequenceId: 5n });
  });

  test("markers and entries without a producer name are not tracked", () => {
    expect(tracked({ markerType: 1 })).toBeUndefined();
    expect(tracked({ producerName: "" })).toBeUndefined();
  });
});
