import { NereusError, fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FrameDecoder } from "./frame-decoder.js";

function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length);
  out.set(payload, 4);
  return out;
}

describe("FrameDecoder", () => {
  it("splits back-to-back frames, including empty ones", () => {
    const decoder = new FrameDecoder();
    expect(decoder.push(fromHex("00000002aabb0000000000000001cc")).map(toHex)).toEqual(["aabb", "", "cc"]);
    expect(decoder.bufferedLength).toBe(0);
  });

  it("rejects negative and oversized declared lengths", () => {
    expect(() => new FrameDecoder(16).push(fromHex("00000011"))).toThrow(NereusError);
    expect(() => new FrameDecoder().push(fromHex("ffffffff"))).toThrowError(/frame length -1/);
  });

  it("emits the same payloads however the stream is chunked", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 70 }), { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1 }),
        (payloads, cuts) => {
          const stream = Uint8Array.from(payloads.flatMap((payload) => Array.from(frame(payload))));
          const decoder = new FrameDecoder();
          const out: string[] = [];
          let at = 0;
          let cut = 0;
          while (at < stream.length) {
            const size = cuts[cut % cuts.length] ?? 1;
            cut += 1;
            out.push(...decoder.push(stream.subarray(at, at + size)).map(toHex));
            at += size;
          }
          expect(out).toEqual(payloads.map(toHex));
          expect(decoder.bufferedLength).toBe(0);
        },
      ),
    );
  });
});
