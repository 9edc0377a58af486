import { describe, expect, test } from "vitest";
import { CompressionType, encodeBatchPayload, encodeMessageEntry } from "../protocol/index.js";
import { parseEntryMetadata } from "./entry-metadata.js";
import { stickyKeyOf } from "./sticky-key.js";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("stickyKeyOf", () => {
  const key = (entry: Uint8Array): string | undefined => {
    const sticky = stickyKeyOf(entry, parseEntryMetadata(entry));
    return sticky === undefined ? undefined : new TextDecoder().decode(sticky);
  };

  test("ordering key before partition key; base64 partition keys are decoded; none without either", () => {
    const base = { producerName: "p", sequenceId: 1n, publishTime: 1n };
    expect(key(encodeMessageEntry({ ...base, partitionKey: "pk", orderingKey: utf8("ok") }, utf8("x")))).toBe("ok");
    expect(key(encodeMessageEntry({ ...base, partitionKey: "pk" }, utf8("x")))).toBe("pk");
    const b64 = Buffer.from("binary-key").toString("base64");
    expect(key(encodeMessageEntry({ ...base, partitionKey: b64, partitionKeyB64Encoded: true }, utf8("x")))).toBe(
      "binary-key",
    );
    expect(key(encodeMessageEntry(base, utf8("x")))).toBeUndefined();
  });

  test("a walkable batch takes its first message's key; a compressed one the entry's", () => {
    const payload = encodeBatchPayload([
      { metadata: { partitionKey: "first" }, payload: utf8("a") },
      { metadata: { partitionKey: "second" }, payload: utf8("b") },
    ]);
    const batch = { producerName: "p", sequenceId: 1n, publishTime: 1n, numMessagesInBatch: 2, partitionKey: "entry" };
    expect(key(encodeMessageEntry(batch, payload))).toBe("first");
    expect(key(encodeMessageEntry({ ...batch, compression: CompressionType.LZ4 }, utf8("opaque")))).toBe("entry");
    expect(key(encodeMessageEntry(batch, utf8("not a batch payload")))).toBe("entry");
  });
});
