import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { inflateGzip } from "./inflate-gzip.js";
import { InflateLimitError, MalformedCompressionError } from "./inflate-limit.js";

describe("inflateGzip", () => {
  it("inflates gzip, including concatenated members", () => {
    const text = new TextEncoder().encode("hello ".repeat(100));
    expect(new TextDecoder().decode(inflateGzip(gzipSync(text), 1 << 20))).toBe("hello ".repeat(100));
    const twice = new Uint8Array([...gzipSync(text), ...gzipSync(text)]);
    expect(inflateGzip(twice, 1 << 20).length).toBe(1200);
  });

  it("refuses garbage and truncated payloads", () => {
    expect(() => inflateGzip(new TextEncoder().encode("definitely not gzip"), 1 << 20)).toThrow(
      MalformedCompressionError,
    );
    const whole = gzipSync(new Uint8Array(1000).fill(7));
    expect(() => inflateGzip(whole.subarray(0, whole.length - 6), 1 << 20)).toThrow(MalformedCompressionError);
  });

  it("stops a bomb at the limit", () => {
    const bomb = gzipSync(new Uint8Array(8 << 20));
    expect(bomb.length).toBeLessThan(16 << 10);
    expect(() => inflateGzip(bomb, 1 << 20)).toThrow(InflateLimitError);
    expect(inflateGzip(bomb, 8 << 20).length).toBe(8 << 20);
  });
});
