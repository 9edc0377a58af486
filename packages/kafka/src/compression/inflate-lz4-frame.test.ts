import { compress } from "lz4js";
import { hash as xxh32 } from "lz4js/xxh32.js";
import { describe, expect, it } from "vitest";
import { InflateLimitError, MalformedCompressionError } from "./inflate-limit.js";
import { inflateLz4Frame } from "./inflate-lz4-frame.js";

const hex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "hex"));
const text = new TextEncoder().encode("lz4 frame lz4 frame ".repeat(200));

/** A frame written by the lz4 command-line tool: block and content checksums, one block (golden bytes). */
const CLI_FRAME = hex(
  "04224d187440bd59000000ff06ea020000000a6b65792d30c00276616c75652d3020080085a0020a7472616365047430b7001102b7001431b7001331b7000f08007f05b7001031b7001104b7001432b7001332b7000f08007fa0020a7472616365047432034100f900000000db65153a",
);

/** A frame header (FLG, BD, optional content size) with its header checksum. */
function frameHeader(flags: number, blockDescriptor: number, contentSize?: bigint): number[] {
  const descriptor = [flags, blockDescriptor];
  if (contentSize !== undefined) {
    const size = new Uint8Array(8);
    new DataView(size.buffer).setBigUint64(0, contentSize, true);
    descriptor.push(...size);
  }
  const checksum = (xxh32(0, new Uint8Array(descriptor), 0, descriptor.length) >>> 8) & 0xff;
  return [0x04, 0x22, 0x4d, 0x18, ...descriptor, checksum];
}

const u32 = (value: number): number[] => [
  value & 0xff,
  (value >>> 8) & 0xff,
  (value >>> 16) & 0xff,
  (value >>> 24) & 0xff,
];

describe("inflateLz4Frame", () => {
  it("inflates frames from lz4js and from the lz4 tool (with checksums)", () => {
    expect(inflateLz4Frame(compress(text), 1 << 20)).toEqual(text);
    expect(inflateLz4Frame(CLI_FRAME, 1 << 20).length).toBe(549);
  });

  it("inflates stored blocks and linked blocks whose matches reach into the previous block", () => {
    const stored = new Uint8Array([...frameHeader(0x40, 0x40), ...u32(0x8000_0003), 0x61, 0x62, 0x63, ...u32(0)]);
    expect(new TextDecoder().decode(inflateLz4Frame(stored, 100))).toBe("abc");
    // Block 2: 1 literal "x", a 20-byte match at offset 3 (reaching into block 1 — "bc" — and itself), a final "y".
    const block2 = [0x1f, 0x78, 0x03, 0x00, 0x01, 0x10, 0x79];
    const linked = new Uint8Array([
      ...frameHeader(0x40, 0x40),
      ...u32(0x8000_0003),
      0x61,
      0x62,
      0x63,
      ...u32(block2.length),
      ...block2,
      ...u32(0),
    ]);
    expect(new TextDecoder().decode(inflateLz4Frame(linked, 1 << 20))).toBe(`abcx${"bcx".repeat(7).slice(0, 20)}y`);
    const independent = Uint8Array.from(linked);
    independent[4] = 0x60;
    independent[6] = (xxh32(0, independent, 4, 2) >>> 8) & 0xff;
    expect(() => inflateLz4Frame(independent, 1 << 20)).toThrow(/points before the start/);
    // A block ending right after a match (the last sequence must be literals only).
    const endsInMatch = [0x1f, 0x78, 0x03, 0x00, 0x01];
    const truncated = new Uint8Array([
      ...frameHeader(0x40, 0x40),
      ...u32(0x8000_0003),
      0x61,
      0x62,
      0x63,
      ...u32(endsInMatch.length),
      ...endsInMatch,
      ...u32(0),
    ]);
    expect(() => inflateLz4Frame(truncated, 1 << 20)).toThrow(MalformedCompressionError);
  });

  it("refuses garbage, bad checksums, trailing bytes and truncation", () => {
    expect(() => inflateLz4Frame(new TextEncoder().encode("not an lz4 frame at all"), 1 << 20)).toThrow(
      MalformedCompressionError,
    );
    const badHeader = CLI_FRAME.slice();
    badHeader[6] = (badHeader[6] ?? 0) ^ 1;
    expect(() => inflateLz4Frame(badHeader, 1 << 20)).toThrow(/header checksum/);
    const badBlock = CLI_FRAME.slice();
    badBlock[20] = (badBlock[20] ?? 0) ^ 1;
    expect(() => inflateLz4Frame(badBlock, 1 << 20)).toThrow(/checksum/);
    const badContent = CLI_FRAME.slice();
    badContent[badContent.length - 1] = (badContent[badContent.length - 1] ?? 0) ^ 1;
    expect(() => inflateLz4Frame(badContent, 1 << 20)).toThrow(/content checksum/);
    expect(() => inflateLz4Frame(new Uint8Array([...CLI_FRAME, 0]), 1 << 20)).toThrow(/follow the frame/);
    expect(() => inflateLz4Frame(CLI_FRAME.subarray(0, 40), 1 << 20)).toThrow(MalformedCompressionError);
  });

  it("refuses a bomb by its declared content size or by its block bound, before inflating", () => {
    const declared = new Uint8Array([...frameHeader(0x48, 0x40, 1n << 40n), ...u32(0x8000_0001), 0x61, ...u32(0)]);
    expect(() => inflateLz4Frame(declared, 64 << 20)).toThrow(InflateLimitError);
    // 64 KiB of zeros compresses to ~270 bytes per block; 40 such blocks bound to 2.5 MiB.
    const block = compress(new Uint8Array(64 << 10));
    const blockBody = block.subarray(7, block.length - 4);
    const many: number[] = [...frameHeader(0x60, 0x40)];
    for (let index = 0; index < 40; index += 1) many.push(...blockBody);
    many.push(...u32(0));
    expect(() => inflateLz4Frame(new Uint8Array(many), 1 << 20)).toThrow(InflateLimitError);
    expect(inflateLz4Frame(new Uint8Array(many), 4 << 20).length).toBe(40 * (64 << 10));
  });
});
