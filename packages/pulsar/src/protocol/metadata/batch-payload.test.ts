import { describe, expect, it } from "vitest";
import { expectDecodeError, expectInvalidArgument, hex } from "../../../test/hex.js";
import { encodeBatchPayload, readBatch } from "./batch-payload.js";
import { CompressionType, type MessageMetadata } from "./message-metadata.js";

const base: MessageMetadata = { producerName: "p", sequenceId: 0n, publishTime: 0n };

describe("batch payloads", () => {
  it("encodes each message as [u32 metadata size][SingleMessageMetadata][payload]", () => {
    // Message 1: metadata { partitionKey "k" (12 01 6b), payloadSize 2 (18 02) } then "hi"; message 2: metadata
    // { payloadSize 0 (18 00) } and no bytes.
    const payload = encodeBatchPayload([
      { metadata: { partitionKey: "k" }, payload: hex("6869") },
      { payload: new Uint8Array(0) },
    ]);
    expect(payload).toEqual(hex("00000005 12016b 1802 6869  00000002 1800"));
  });

  it("walks an uncompressed batch, giving views of each message", () => {
    const payload = encodeBatchPayload([
      { metadata: { partitionKey: "a", sequenceId: 7n }, payload: hex("01") },
      { metadata: { orderingKey: hex("beef") }, payload: hex("0203") },
    ]);
    const contents = readBatch({ ...base, numMessagesInBatch: 2 }, payload);
    expect(contents).toEqual({
      kind: "batch",
      count: 2,
      messages: [
        { metadata: { partitionKey: "a", sequenceId: 7n, payloadSize: 1 }, payload: hex("01") },
        { metadata: { orderingKey: hex("beef"), payloadSize: 2 }, payload: hex("0203") },
      ],
    });
    if (contents.kind === "batch") expect(contents.messages[1]?.payload.buffer).toBe(payload.buffer);
  });

  it("reports single messages, and only counts for compressed or encrypted batches", () => {
    expect(readBatch(base, hex("ff"))).toEqual({ kind: "single" });
    expect(readBatch({ ...base, numMessagesInBatch: 5, compression: CompressionType.ZSTD }, hex("ff"))).toEqual({
      kind: "opaque-batch",
      count: 5,
      reason: "compressed",
    });
    const encrypted = { ...base, numMessagesInBatch: 3, encryptionKeys: [{ key: "k", value: hex("00") }] };
    expect(readBatch(encrypted, hex("ff"))).toEqual({ kind: "opaque-batch", count: 3, reason: "encrypted" });
    expect(readBatch({ ...base, numMessagesInBatch: 0 }, new Uint8Array(0))).toEqual({
      kind: "batch",
      count: 0,
      messages: [],
    });
  });

  it("fails when the payload does not hold exactly the declared messages", () => {
    const two = encodeBatchPayload([{ payload: hex("01") }, { payload: hex("02") }]);
    const batchOf = (count: number): MessageMetadata => ({ ...base, numMessagesInBatch: count });
    expect(expectDecodeError(() => readBatch(batchOf(3), two, 40)).message).toContain(
      "batch message 2 of 3 at byte 54: truncated before its metadata size",
    );
    expect(expectDecodeError(() => readBatch(batchOf(1), two)).message).toContain("byte(s) after the last of 1");
    expectDecodeError(() => readBatch(batchOf(-1), two));
    expect(expectDecodeError(() => readBatch(batchOf(1), hex("00000009 1801 01"))).message).toContain(
      "metadata size 9 exceeds",
    );
    expect(expectDecodeError(() => readBatch(batchOf(1), hex("00000002 1805 01"))).message).toContain(
      "payload size 5 exceeds",
    );
    expectDecodeError(() => readBatch(batchOf(1), hex("00000002 0801 01")));
    expectInvalidArgument(() => encodeBatchPayload([{ payload: "x" as unknown as Uint8Array }]));
  });
});
