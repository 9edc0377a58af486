import { ByteWriter, NereusError, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeResponse, encodeResponseParts, SHARED_FIELD_BYTES } from "../encode-response.js";
import type { FetchResponse } from "../apis/fetch/fetch-response.js";
import { RecordParts } from "../primitives/record-parts.js";
import { decodeResponse } from "../encode-request.js";
import { SharingByteWriter } from "./sharing-byte-writer.js";

const join = (parts: readonly Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((part) => [...part]));

describe("SharingByteWriter", () => {
  it("keeps large byte fields by reference and writes the rest into its buffer; the parts join to what ByteWriter writes", () => {
    const big = new Uint8Array(100).fill(7);
    const writer = new SharingByteWriter(16, 64)
      .writeU32(1)
      .writeBytes(big)
      .writeU8(2)
      .writeBytes(new Uint8Array([3, 4]))
      .writeBytes(big);
    const parts = writer.parts();
    expect(parts.map((part) => part.length)).toEqual([4, 100, 3, 100]);
    expect(parts[1]).toBe(big);
    expect(parts[3]).toBe(big);
    expect(writer.totalLength).toBe(207);
    const plain = new ByteWriter()
      .writeU32(1)
      .writeBytes(big)
      .writeU8(2)
      .writeBytes(new Uint8Array([3, 4]))
      .writeBytes(big)
      .finish();
    expect(toHex(join(parts))).toBe(toHex(plain));
  });

  it("property: any mix of fields joins to exactly the plain encoding", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 0xffff_ffff })), {
          maxLength: 20,
        }),
        fc.integer({ min: 1, max: 200 }),
        (fields, threshold) => {
          const sharing = new SharingByteWriter(8, threshold);
          const plain = new ByteWriter(8);
          for (const field of fields) {
            if (typeof field === "number") {
              sharing.writeU32(field);
              plain.writeU32(field);
            } else {
              sharing.writeBytes(field);
              plain.writeBytes(field);
            }
          }
          expect(toHex(join(sharing.parts()))).toBe(toHex(plain.finish()));
        },
      ),
    );
  });

  it("refuses to patch a length slot that spans a shared part, and a bad threshold", () => {
    const writer = new SharingByteWriter(16, 4);
    const slot = writer.reserveLength();
    writer.writeBytes(new Uint8Array(10));
    expect(() => writer.patchLength(slot)).toThrow(NereusError);
    expect(() => new SharingByteWriter(16, 0)).toThrow(RangeError);
  });
});

describe("encodeResponseParts", () => {
  const fetchResponse = (records: Uint8Array | RecordParts): FetchResponse => ({
    throttleTimeMs: 0,
    errorCode: 0,
    sessionId: 0,
    responses: [
      {
        topic: "t",
        topicId: "5c3e8d2a-71b4-4f0e-9a6d-0b1c2d3e4f50",
        partitions: [
          {
            partitionIndex: 0,
            errorCode: 0,
            highWatermark: 10,
            lastStableOffset: 10,
            logStartOffset: 0,
            divergingEpoch: { epoch: -1, endOffset: -1 },
            currentLeader: { leaderId: -1, leaderEpoch: -1 },
            snapshotId: { endOffset: -1, epoch: -1 },
            abortedTransactions: null,
            preferredReadReplica: -1,
            records,
          },
        ],
      },
    ],
    nodeEndpoints: [],
  });

  it.each([4, 11, 12, 16])(
    "Fetch v%i: the parts join to exactly encodeResponse's frame, the records not copied",
    (apiVersion) => {
      const records = new Uint8Array(SHARED_FIELD_BYTES + 5).map((_, index) => index % 251);
      const request = { apiKey: 1 as const, apiVersion, correlationId: 77 };
      const parts = encodeResponseParts(request, fetchResponse(records));
      expect(parts).toContain(records);
      expect(toHex(join(parts))).toBe(toHex(encodeResponse(request, fetchResponse(records))));
      const small = fetchResponse(new Uint8Array([1, 2, 3]));
      expect(toHex(join(encodeResponseParts(request, small)))).toBe(toHex(encodeResponse(request, small)));
      expect(encodeResponseParts(request, small)).toHaveLength(1);
    },
  );

  it.each([4, 12, 16])(
    "Fetch v%i: records given as parts encode to the bytes of their join; large parts go out by reference",
    (apiVersion) => {
      const batchA = new Uint8Array(SHARED_FIELD_BYTES + 5).map((_, index) => index % 251);
      const batchB = new Uint8Array([9, 8, 7]);
      const batchC = new Uint8Array(SHARED_FIELD_BYTES).fill(3);
      const joined = Uint8Array.from([...batchA, ...batchB, ...batchC]);
      const request = { apiKey: 1 as const, apiVersion, correlationId: 78 };
      const recordParts = new RecordParts([batchA, batchB, batchC]);
      expect(recordParts.length).toBe(joined.length);
      const expected = toHex(encodeResponse(request, fetchResponse(joined)));
      expect(toHex(encodeResponse(request, fetchResponse(recordParts)))).toBe(expected);
      const parts = encodeResponseParts(request, fetchResponse(recordParts));
      expect(parts).toContain(batchA);
      expect(parts).toContain(batchC);
      expect(toHex(join(parts))).toBe(expected);
      // Decoding gives one view of the joined bytes.
      const frame = encodeResponse(request, fetchResponse(recordParts));
      const decoded = decodeResponse(request, frame.subarray(4));
      expect(toHex(decoded.body.responses[0]?.partitions[0]?.records as Uint8Array)).toBe(toHex(joined));
      expect(toHex(new RecordParts([]).join())).toBe("");
    },
  );

  it("refuses a part that is not a Uint8Array", () => {
    expect(() => new RecordParts([new Uint8Array(1), "x" as unknown as Uint8Array])).toThrow(NereusError);
  });
});
