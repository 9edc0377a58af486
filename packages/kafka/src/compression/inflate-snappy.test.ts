import { compress } from "snappyjs";
import { describe, expect, it } from "vitest";
import { InflateLimitError, MalformedCompressionError } from "./inflate-limit.js";
import { inflateSnappy } from "./inflate-snappy.js";

const text = new TextEncoder().encode("snappy snappy snappy ".repeat(50));

/** xerial snappy-java's stream framing (the Java client's format): header, then length-prefixed raw blocks. */
function xerial(...blocks: Uint8Array[]): Uint8Array {
  const parts: number[] = [0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1];
  for (const block of blocks)
    parts.push(
      (block.length >>> 24) & 0xff,
      (block.length >>> 16) & 0xff,
      (block.length >>> 8) & 0xff,
      block.length & 0xff,
      ...block,
    );
  return new Uint8Array(parts);
}

describe("inflateSnappy", () => {
  it("inflates a raw snappy block (librdkafka, kafkajs)", () => {
    expect(inflateSnappy(compress(text), 1 << 20)).toEqual(text);
  });

  it("inflates xerial-framed chunks (the Java client)", () => {
    const half = text.subarray(0, 500);
    expect(inflateSnappy(xerial(compress(half), compress(text.subarray(500))), 1 << 20)).toEqual(text);
    expect(inflateSnappy(xerial(compress(text)), 1 << 20)).toEqual(text);
  });

  it("refuses garbage, truncated blocks and broken xerial chunks", () => {
    expect(() => inflateSnappy(new Uint8Array([0x05, 0xff, 0xff, 0xff, 0xff, 0xff]), 1 << 20)).toThrow(
      MalformedCompressionError,
    );
    // A 4-byte copy offset of 0xffffffff, and a copy before any output.
    expect(() => inflateSnappy(new Uint8Array([0x05, 0x03, 0xff, 0xff, 0xff, 0xff]), 1 << 20)).toThrow(/points before/);
    // Literals past the declared length, and a block shorter than it declares.
    expect(() => inflateSnappy(new Uint8Array([0x01, 0x04, 0x61, 0x62]), 1 << 20)).toThrow(/past its declared length/);
    expect(() => inflateSnappy(new Uint8Array([0x03, 0x00, 0x61]), 1 << 20)).toThrow(/declares 3 bytes but holds 1/);
    const block = compress(text);
    expect(() => inflateSnappy(block.subarray(0, block.length - 5), 1 << 20)).toThrow(MalformedCompressionError);
    const framed = xerial(block);
    expect(() => inflateSnappy(framed.subarray(0, framed.length - 3), 1 << 20)).toThrow(MalformedCompressionError);
  });

  it("refuses a block declaring more than the limit before inflating it", () => {
    // Preamble: 1 GiB as an unsigned varint, then a single literal.
    const bomb = new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x04, 0x00, 0x61]);
    expect(() => inflateSnappy(bomb, 64 << 20)).toThrow(InflateLimitError);
    const big = new Uint8Array(2 << 20);
    expect(() => inflateSnappy(xerial(compress(big), compress(big)), 3 << 20)).toThrow(InflateLimitError);
  });
});
