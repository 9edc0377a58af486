import { describe, expect, it } from "vitest";
import { InflateLimitError, MalformedCompressionError } from "./inflate-limit.js";
import { inflateZstd } from "./inflate-zstd.js";

const hex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "hex"));

/** 549 bytes of Kafka records compressed by the zstd tool at level 19 (golden bytes), without and with checksum. */
const CLI_FRAME = hex(
  "28b52ffd6025013d0200d402ea020000000a6b65792d30c00276616c75652d3020020a7472616365047430ea020000023131203104323220320a2030b73b36408162624fecb5058a1445acaeabaea4c61d",
);
const CLI_FRAME_WITH_CHECKSUM = hex(
  "28b52ffd6425014d0200b402ea020000000a6b65792d30c00276616c75652d3020020a7472616365047430ea02000002313131043232320c00a08007a000f20162e004d803453c0005900f88d599abae8c2a7779788b81",
);

const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
/** A block header: last flag, type (0 raw, 1 RLE, 2 compressed), size. */
const blockHeader = (last: boolean, type: number, size: number): number[] => {
  const value = (size << 3) | (type << 1) | (last ? 1 : 0);
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff];
};
/** A frame header without content size, with a window of 2^(10 + exponent) bytes. */
const windowedHeader = (exponent: number): number[] => [...MAGIC, 0x00, exponent << 3];

describe("inflateZstd", () => {
  it("inflates frames from the zstd tool", () => {
    expect(inflateZstd(CLI_FRAME, 1 << 20).length).toBe(549);
    expect(inflateZstd(CLI_FRAME_WITH_CHECKSUM, 1 << 20)).toEqual(inflateZstd(CLI_FRAME, 1 << 20));
  });

  it("inflates raw and RLE blocks, and skips skippable frames", () => {
    const frame = new Uint8Array([
      ...windowedHeader(0),
      ...blockHeader(false, 0, 3),
      0x61,
      0x62,
      0x63,
      ...blockHeader(true, 1, 4),
      0x7a,
    ]);
    const skippable = [0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 0xee, 0xee];
    expect(new TextDecoder().decode(inflateZstd(new Uint8Array([...skippable, ...frame]), 4096))).toBe("abczzzz");
    expect(() => inflateZstd(frame, 100)).toThrow(/window/);
  });

  it("refuses garbage, truncation, reserved bits, dictionaries and trailing junk", () => {
    expect(() => inflateZstd(new TextEncoder().encode("definitely not zstd"), 1 << 20)).toThrow(
      MalformedCompressionError,
    );
    expect(() => inflateZstd(CLI_FRAME.subarray(0, 40), 1 << 20)).toThrow(MalformedCompressionError);
    const reserved = CLI_FRAME.slice();
    reserved[4] = (reserved[4] ?? 0) | 0x08;
    expect(() => inflateZstd(reserved, 1 << 20)).toThrow(/reserved/);
    const dictionary = new Uint8Array([...MAGIC, 0x01, 0x00, 0x07, ...blockHeader(true, 0, 0)]);
    expect(() => inflateZstd(dictionary, 1 << 20)).toThrow(/dictionary/);
    expect(() => inflateZstd(new Uint8Array([...CLI_FRAME, 1, 2, 3, 4, 5]), 1 << 20)).toThrow(
      MalformedCompressionError,
    );
    const corrupted = CLI_FRAME.slice();
    corrupted[30] = (corrupted[30] ?? 0) ^ 0xff;
    corrupted[31] = (corrupted[31] ?? 0) ^ 0xff;
    let outcome: unknown;
    try {
      outcome = inflateZstd(corrupted, 1 << 20);
    } catch (error) {
      outcome = error;
    }
    // Flipped bytes inside a compressed block either fail to decode or decode to other bytes (no checksum here);
    // either way the records walk after it decides.
    expect(outcome instanceof MalformedCompressionError || outcome instanceof Uint8Array).toBe(true);
  });

  it("refuses bombs by declared content size, window, or RLE blocks, before inflating", () => {
    const declared = new Uint8Array([...MAGIC, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, ...blockHeader(true, 1, 1), 0]);
    expect(() => inflateZstd(declared, 64 << 20)).toThrow(InflateLimitError);
    const window = new Uint8Array([...windowedHeader(30), ...blockHeader(true, 0, 0)]);
    expect(() => inflateZstd(window, 64 << 20)).toThrow(/window/);
    const rle: number[] = [...windowedHeader(7)];
    for (let index = 0; index < 600; index += 1) rle.push(...blockHeader(index === 599, 1, 128 * 1024), 0);
    expect(rle.length).toBeLessThan(4096);
    expect(() => inflateZstd(new Uint8Array(rle), 64 << 20)).toThrow(InflateLimitError);
    expect(inflateZstd(new Uint8Array(rle), 80 << 20).length).toBe(600 * 128 * 1024);
  });
});
