import { ErrorCode } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { thrownError } from "../../test/thrown-error.js";
import { encodeBatchPayload, encodeMessageEntry } from "../protocol/index.js";
import { describeEntry, parseEntryMetadata } from "./entry-metadata.js";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("parseEntryMetadata", () => {
  test("a single message: one message, its producer, sequence id and publish time", () => {
    const entry = encodeMessageEntry(
      { producerName: "p-1", sequenceId: 7n, publishTime: 1_700_000_000_123n },
      utf8("hi"),
    );
    const described = parseEntryMetadata(entry);
    expect(described).toMatchObject({
      numberOfMessages: 1,
      isBatch: false,
      producerName: "p-1",
      sequenceId: 7n,
      lastSequenceId: 7n,
      publishTime: 1_700_000_000_123n,
      isMarker: false,
      isEncrypted: false,
      isChunk: false,
      inTransaction: false,
    });
    expect(entry.subarray(described.payloadOffset)).toEqual(utf8("hi"));
  });

  test("a batch: its message count and the highest sequence id; a client's -1 reads as -1", () => {
    const payload = encodeBatchPayload([{ payload: utf8("a") }, { payload: utf8("b") }, { payload: utf8("c") }]);
    const batch = encodeMessageEntry(
      { producerName: "p", sequenceId: 10n, highestSequenceId: 12n, publishTime: 5n, numMessagesInBatch: 3 },
      payload,
    );
    expect(parseEntryMetadata(batch)).toMatchObject({
      numberOfMessages: 3,
      isBatch: true,
      sequenceId: 10n,
      lastSequenceId: 12n,
    });
    const unsequenced = encodeMessageEntry(
      { producerName: "p", sequenceId: 2n ** 64n - 1n, publishTime: 5n },
      utf8("x"),
    );
    expect(parseEntryMetadata(unsequenced)).toMatchObject({ sequenceId: -1n, lastSequenceId: -1n });
  });

  test("markers, encryption, chunks, transactions and delayed delivery are recognised", () => {
    const entry = encodeMessageEntry(
      {
        producerName: "p",
        sequenceId: 1n,
        publishTime: 1n,
        markerType: 2,
        encryptionKeys: [{ key: "k", value: utf8("v") }],
        uuid: "u",
        numChunksFromMsg: 3,
        chunkId: 0,
        txnidMostBits: 1n,
        txnidLeastBits: 2n,
        deliverAtTime: 99n,
      },
      utf8("x"),
    );
    expect(parseEntryMetadata(entry)).toMatchObject({
      isMarker: true,
      isEncrypted: true,
      isChunk: true,
      inTransaction: true,
      deliverAtTime: 99n,
    });
  });

  test("what is not a stored Pulsar entry fails DECODE_ERROR", () => {
    const entry = encodeMessageEntry({ producerName: "p", sequenceId: 1n, publishTime: 1n }, utf8("x"));
    thrownError(() => parseEntryMetadata(entry.subarray(0, 9)), ErrorCode.DECODE_ERROR);
    const wrongMagic = entry.slice();
    wrongMagic[1] = 0x02;
    expect(thrownError(() => parseEntryMetadata(wrongMagic), ErrorCode.DECODE_ERROR).message).toContain("magic");
    const oversized = entry.slice();
    new DataView(oversized.buffer).setUint32(6, 10_000);
    expect(thrownError(() => parseEntryMetadata(oversized), ErrorCode.DECODE_ERROR).message).toContain("metadata size");
    thrownError(
      () => describeEntry({ producerName: "p", sequenceId: 1n, publishTime: 1n, numMessagesInBatch: -1 }, 0),
      ErrorCode.DECODE_ERROR,
    );
  });

  test("whatever the metadata, parsing the stored entry equals describing the metadata it was built from", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.option(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
        fc.uint8Array({ maxLength: 64 }),
        (producerName, sequenceId, highestSequenceId, numMessagesInBatch, payload) => {
          const metadata = {
            producerName,
            sequenceId,
            publishTime: 1n,
            ...(highestSequenceId === undefined ? {} : { highestSequenceId }),
            ...(numMessagesInBatch === undefined ? {} : { numMessagesInBatch }),
          };
          const entry = encodeMessageEntry(metadata, payload);
          const parsed = parseEntryMetadata(entry);
          expect(parsed.numberOfMessages).toBe(numMessagesInBatch ?? 1);
          const signed = BigInt.asIntN(64, sequenceId);
          const highest = highestSequenceId === undefined ? signed : BigInt.asIntN(64, highestSequenceId);
          expect(parsed.lastSequenceId).toBe(highest > signed ? highest : signed);
          expect(entry.subarray(parsed.payloadOffset)).toEqual(payload);
        },
      ),
    );
  });
});
