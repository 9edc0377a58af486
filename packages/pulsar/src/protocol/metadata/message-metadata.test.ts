import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectDecodeError, hex } from "../../../test/hex.js";
import { arbitraryOf } from "../../../test/proto-arbitrary.js";
import { BrokerEntryMetadataCodec } from "./broker-entry-metadata.js";
import {
  CompressionType,
  MessageMetadataCodec,
  decodeMessageMetadata,
  encodeMessageMetadata,
} from "./message-metadata.js";
import { SingleMessageMetadataCodec } from "./single-message-metadata.js";

describe("MessageMetadata", () => {
  it("matches golden bytes derived by hand", () => {
    // producerName "p" (0a 01 70), sequenceId 3 (10 03), publishTime 1000 (18 e807), properties [{a: b}]
    // (22 06: 0a 01 61, 12 01 62), partitionKey "k" (32 01 6b), compression LZ4 (40 01), uncompressedSize 300
    // (48 ac02), numMessagesInBatch 2 (58 02), orderingKey 0xff (92 01 01 ff), deliverAtTime -1 (98 01 + ten
    // bytes), highestSequenceId 4 (c0 01 04), nullValue (c8 01 01).
    const metadata = {
      producerName: "p",
      sequenceId: 3n,
      publishTime: 1000n,
      properties: [{ key: "a", value: "b" }],
      partitionKey: "k",
      compression: CompressionType.LZ4,
      uncompressedSize: 300,
      numMessagesInBatch: 2,
      orderingKey: hex("ff"),
      deliverAtTime: -1n,
      highestSequenceId: 4n,
      nullValue: true,
    };
    const bytes = hex(
      "0a0170 1003 18e807 2206 0a0161 120162 32016b 4001 48ac02 5802 920101ff 9801ffffffffffffffffff01 c00104 c80101",
    );
    expect(encodeMessageMetadata(metadata)).toEqual(bytes);
    expect(decodeMessageMetadata(bytes)).toEqual(metadata);
  });

  it("keeps numMessagesInBatch absent on a single message (clients test its presence)", () => {
    const single = decodeMessageMetadata(hex("0a0170 1000 1800"));
    expect(single).toStrictEqual({ producerName: "p", sequenceId: 0n, publishTime: 0n });
    expect("numMessagesInBatch" in single).toBe(false);
  });

  it("requires producerName, sequenceId and publishTime", () => {
    expect(expectDecodeError(() => decodeMessageMetadata(hex("0a0170 1000"), 30)).message).toContain(
      "MessageMetadata at byte 30: required field publishTime",
    );
  });

  it("round-trips MessageMetadata, SingleMessageMetadata and BrokerEntryMetadata", () => {
    for (const codec of [MessageMetadataCodec, SingleMessageMetadataCodec, BrokerEntryMetadataCodec] as const) {
      fc.assert(
        fc.property(arbitraryOf(codec as typeof MessageMetadataCodec), (value) => {
          const bytes = codec.encode(value as never);
          expect(codec.decode(bytes)).toEqual(value);
        }),
        { numRuns: 300 },
      );
    }
  });
});
