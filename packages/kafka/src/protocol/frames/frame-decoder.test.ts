import { ErrorCode, NereusError } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectDecodeError, hex } from "../../../test/hex.js";
import { DEFAULT_MAX_FRAME_BYTES, FrameDecoder } from "./frame-decoder.js";

function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + payload.length);
  new DataView(out.buffer).setInt32(0, payload.length);
  out.set(payload, 4);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

describe("FrameDecoder", () => {
  it("yields complete frames without their size prefix and keeps partial ones buffered", () => {
    const decoder = new FrameDecoder();
    expect(decoder.push(hex("00000003 aabb"))).toEqual([]);
    expect(decoder.bufferedBytes).toBe(2);
    expect(decoder.push(hex("cc 00000001 dd 0000"))).toEqual([hex("aabbcc"), hex("dd")]);
    expect(decoder.bufferedBytes).toBe(2);
    expect(decoder.push(hex("0000"))).toEqual([new Uint8Array(0)]);
    decoder.end();
  });

  it("returns views of the pushed chunk when a frame lies inside it", () => {
    const chunk = hex("00000002 0102");
    const [only] = new FrameDecoder().push(chunk);
    expect(only?.buffer).toBe(chunk.buffer);
  });

  it("reassembles frames across arbitrary chunk boundaries", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }),
        fc.array(fc.nat({ max: 40 }), { maxLength: 30 }),
        (payloads, cuts) => {
          const stream = concat(payloads.map(frame));
          const decoder = new FrameDecoder({ maxFrameBytes: 64 });
          const out: Uint8Array[] = [];
          let at = 0;
          for (const cut of cuts) {
            const end = Math.min(stream.length, at + cut);
            out.push(...decoder.push(stream.subarray(at, end)));
            at = end;
          }
          out.push(...decoder.push(stream.subarray(at)));
          decoder.end();
          expect(out).toEqual(payloads);
        },
      ),
    );
  });

  it("rejects negative and oversized sizes with DECODE_ERROR naming the stream offset, then stays failed", () => {
    const negative = new FrameDecoder();
    const error = expectDecodeError(() => negative.push(hex("00000000 ffffffff")));
    expect(error.message).toMatch(/negative frame size -1/);
    expect(error.message).toMatch(/stream byte offset 4/);
    expectDecodeError(() => negative.push(hex("00000000")));

    const small = new FrameDecoder({ maxFrameBytes: 10 });
    expect(small.push(hex("0000000a 00000000000000000000"))).toHaveLength(1);
    expect(expectDecodeError(() => small.push(hex("0000000b"))).message).toMatch(/exceeds the maximum of 10 bytes/);
    expect(new FrameDecoder().maxFrameBytes).toBe(DEFAULT_MAX_FRAME_BYTES);
  });

  it("reports a stream that ends mid-frame", () => {
    const decoder = new FrameDecoder();
    decoder.push(hex("00000005 01"));
    expect(expectDecodeError(() => decoder.end()).message).toMatch(/stream ended inside a 5-byte frame/);
    const prefix = new FrameDecoder();
    prefix.push(hex("0000"));
    expect(expectDecodeError(() => prefix.end()).message).toMatch(/size prefix/);
  });

  it("refuses a nonsensical maximum", () => {
    expect(() => new FrameDecoder({ maxFrameBytes: -1 })).toThrow(NereusError);
    try {
      new FrameDecoder({ maxFrameBytes: 2 ** 31 });
    } catch (error) {
      expect(NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)).toBe(true);
    }
  });

  it("never throws anything but DECODE_ERROR on arbitrary input", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 32 }), { maxLength: 10 }), (chunks) => {
        const decoder = new FrameDecoder({ maxFrameBytes: 1024 });
        try {
          for (const chunk of chunks) decoder.push(chunk);
        } catch (error) {
          expect(NereusError.hasCode(error, ErrorCode.DECODE_ERROR)).toBe(true);
        }
      }),
    );
  });

  it("tells the declared size of the frame being received and whether it is mid-frame", () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 1024 });
    expect([decoder.midFrame, decoder.pendingFrameBytes]).toEqual([false, 0]);
    decoder.push(new Uint8Array([0, 0]));
    expect([decoder.midFrame, decoder.pendingFrameBytes]).toEqual([true, 0]);
    decoder.push(new Uint8Array([0, 5, 1, 2]));
    expect([decoder.midFrame, decoder.pendingFrameBytes]).toEqual([true, 5]);
    expect(decoder.push(new Uint8Array([3, 4, 5]))).toHaveLength(1);
    expect([decoder.midFrame, decoder.pendingFrameBytes]).toEqual([false, 0]);
  });
});
