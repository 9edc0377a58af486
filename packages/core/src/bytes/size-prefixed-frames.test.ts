import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { SizePrefixedFrames } from "./size-prefixed-frames.js";

function framed(...payloads: number[][]): Uint8Array {
  const bytes: number[] = [];
  for (const payload of payloads) {
    const size = payload.length;
    bytes.push((size >>> 24) & 0xff, (size >>> 16) & 0xff, (size >>> 8) & 0xff, size & 0xff, ...payload);
  }
  return Uint8Array.from(bytes);
}

const splitter = () =>
  new SizePrefixedFrames({
    context: "Test frame",
    prefixName: "size prefix",
    checkSize: (size) => (size > 8 ? `frame size ${String(size)} is over 8` : undefined),
  });

describe("SizePrefixedFrames", () => {
  it("returns the frames of a stream cut at every byte boundary, in order", () => {
    const stream = framed([1, 2, 3], [], [4, 5, 6, 7, 8]);
    for (let cut = 0; cut <= stream.length; cut += 1) {
      const frames = splitter();
      const out = [...frames.push(stream.subarray(0, cut)), ...frames.push(stream.subarray(cut))];
      expect(out.map((frame) => [...frame])).toEqual([[1, 2, 3], [], [4, 5, 6, 7, 8]]);
      expect(frames.midFrame).toBe(false);
      frames.end();
    }
  });

  it("refuses a size the protocol refuses, naming the stream offset, and stays failed", () => {
    const frames = splitter();
    frames.push(framed([1]));
    const error = (() => {
      try {
        frames.push(framed([1, 2, 3, 4, 5, 6, 7, 8, 9]));
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(NereusError.hasCode(error, ErrorCode.DECODE_ERROR)).toBe(true);
    expect((error as Error).message).toBe("Test frame at stream byte offset 5: frame size 9 is over 8");
    expect(() => frames.push(new Uint8Array(0))).toThrow(/stream byte offset 5/);
  });

  it("pushSettled returns the frames before a refused size together with the failure, and then only the failure", () => {
    const frames = splitter();
    const stream = framed([1, 2], [3], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const settled = frames.pushSettled(stream);
    expect(settled.frames.map((frame) => [...frame])).toEqual([[1, 2], [3]]);
    expect(NereusError.hasCode(settled.failure, ErrorCode.DECODE_ERROR)).toBe(true);
    expect(settled.failure?.message).toBe("Test frame at stream byte offset 11: frame size 9 is over 8");
    expect(frames.pushSettled(framed([4]))).toEqual({ frames: [], failure: settled.failure });
    expect(() => frames.push(new Uint8Array(0))).toThrow(/stream byte offset 11/);
    expect(splitter().pushSettled(framed([4], [5]))).toEqual({ frames: [Uint8Array.of(4), Uint8Array.of(5)] });
  });

  it("reports a stream that ends inside a frame or its prefix", () => {
    const inFrame = splitter();
    inFrame.push(framed([1, 2, 3]).subarray(0, 5));
    expect(inFrame.pendingFrameBytes).toBe(3);
    expect(() => inFrame.end()).toThrow(/inside a 3-byte frame \(1 byte\(s\) buffered\)/);
    const inPrefix = splitter();
    inPrefix.push(Uint8Array.of(0, 0));
    expect(() => inPrefix.end()).toThrow(/inside a size prefix/);
  });
});
