import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectDecodeError, expectInvalidArgument, hex } from "../../../test/hex.js";
import { CONNECT_FRAME, MESSAGE_FRAME, PING_FRAME, SEND_FRAME } from "../../../test/golden-frames.js";
import { decodeFrame } from "./decode-frame.js";
import { PulsarFrameDecoder } from "./frame-decoder.js";
import { DEFAULT_MAX_FRAME_BYTES } from "./frame-layout.js";

const FRAMES = [PING_FRAME, SEND_FRAME, CONNECT_FRAME, MESSAGE_FRAME];
const STREAM = new Uint8Array(FRAMES.flatMap((frame) => [...frame]));
const EXPECTED = FRAMES.map((frame) => frame.subarray(4));

function collect(decoder: PulsarFrameDecoder, chunks: readonly Uint8Array[]): Uint8Array[] {
  const out = chunks.flatMap((chunk) => decoder.push(chunk));
  decoder.end();
  return out;
}

describe("PulsarFrameDecoder", () => {
  it("splits a stream cut at every byte boundary into the same frames", () => {
    for (let cut = 0; cut <= STREAM.length; cut += 1) {
      const frames = collect(new PulsarFrameDecoder(), [STREAM.subarray(0, cut), STREAM.subarray(cut)]);
      expect(frames, `cut at ${String(cut)}`).toEqual(EXPECTED);
    }
  });

  it("splits a stream fed one byte at a time, and the frames decode", () => {
    const bytes = [...STREAM].map((byte) => new Uint8Array([byte]));
    const frames = collect(new PulsarFrameDecoder(), bytes);
    expect(frames).toEqual(EXPECTED);
    expect(frames.map((frame) => decodeFrame(frame).command.type)).toEqual(["PING", "SEND", "CONNECT", "MESSAGE"]);
  });

  it("splits a stream cut at random boundaries", () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: STREAM.length }), { maxLength: 12 }), (cuts) => {
        const points = [0, ...cuts.sort((left, right) => left - right), STREAM.length];
        const chunks = points.slice(1).map((end, index) => STREAM.subarray(points[index], end));
        expect(collect(new PulsarFrameDecoder(), chunks)).toEqual(EXPECTED);
      }),
    );
  });

  it("returns views of the pushed chunk when a frame lies inside it, copies otherwise", () => {
    const [inside] = new PulsarFrameDecoder().push(PING_FRAME);
    expect(inside?.buffer).toBe(PING_FRAME.buffer);
    const decoder = new PulsarFrameDecoder();
    decoder.push(PING_FRAME.subarray(0, 6));
    const [spanning] = decoder.push(PING_FRAME.subarray(6));
    expect(spanning?.buffer).not.toBe(PING_FRAME.buffer);
    expect(decoder.midFrame).toBe(false);
  });

  it("rejects an oversized frame as soon as its size is read, counting the totalSize field", () => {
    const decoder = new PulsarFrameDecoder({ maxFrameBytes: 13 });
    expect(decoder.push(PING_FRAME)).toHaveLength(1);
    expect(decoder.push(hex("00000009"))).toEqual([]);
    decoder.push(hex("00000005 0812920100"));
    const error = expectDecodeError(() => decoder.push(hex("0000000a")));
    expect(error.message).toBe("Pulsar frame at stream byte offset 26: frame of 14 bytes exceeds the maximum of 13");
    expectDecodeError(() => decoder.push(PING_FRAME));
    expect(new PulsarFrameDecoder().maxFrameBytes).toBe(DEFAULT_MAX_FRAME_BYTES);
    expect(DEFAULT_MAX_FRAME_BYTES).toBe(5 * 1024 * 1024 + 10 * 1024);
    expectDecodeError(() => new PulsarFrameDecoder().push(hex("ffffffff")));
  });

  it("rejects a totalSize that cannot hold the commandSize", () => {
    expect(expectDecodeError(() => new PulsarFrameDecoder().push(hex("00000003 000000"))).message).toContain(
      "totalSize 3 cannot hold the 4-byte commandSize",
    );
  });

  it("reports a stream that ends mid-frame or mid-size", () => {
    const decoder = new PulsarFrameDecoder();
    decoder.push(hex("00000009 0000"));
    expect(decoder.bufferedBytes).toBe(2);
    expect(expectDecodeError(() => decoder.end()).message).toContain("stream ended inside a 9-byte frame");
    const sizeOnly = new PulsarFrameDecoder();
    sizeOnly.push(hex("0000"));
    expect(expectDecodeError(() => sizeOnly.end()).message).toContain("inside a totalSize field");
  });

  it("validates its maximum", () => {
    expectInvalidArgument(() => new PulsarFrameDecoder({ maxFrameBytes: 7 }));
    expectInvalidArgument(() => new PulsarFrameDecoder({ maxFrameBytes: 2 ** 32 }));
    expectInvalidArgument(() => new PulsarFrameDecoder({ maxFrameBytes: 1.5 }));
  });
});
