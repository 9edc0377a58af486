import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareUtf8, prefixRangeEnd, prefixUpperBound, scanLowerBound } from "./utf8-key-range.js";

const keyCharacters = fc.constantFrom(
  "a",
  "b",
  "/",
  "\u0000",
  "\u007F",
  "é",
  "\uD7FF",
  "\uE000",
  "\uFFFF",
  "\u{10000}",
  "\u{10FFFF}",
);
const keyString = fc.array(keyCharacters, { maxLength: 5 }).map((characters) => characters.join(""));

describe("utf8-key-range", () => {
  it("compareUtf8 orders by UTF-8 bytes, not UTF-16 code units", () => {
    expect("\uFF21" > "\u{1F600}").toBe(true);
    expect(compareUtf8("\uFF21", "\u{1F600}")).toBeLessThan(0);
    fc.assert(
      fc.property(keyString, keyString, (left, right) => {
        expect(Math.sign(compareUtf8(left, right))).toBe(
          Math.sign(Buffer.compare(Buffer.from(left), Buffer.from(right))),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it("prefixUpperBound bounds exactly the strings with the prefix", () => {
    fc.assert(
      fc.property(keyString, keyString, (prefix, candidate) => {
        const upper = prefixUpperBound(prefix);
        const inRange =
          compareUtf8(candidate, prefix) >= 0 && (upper === undefined || compareUtf8(candidate, upper) < 0);
        expect(inRange).toBe(candidate.startsWith(prefix));
      }),
    );
    expect(prefixUpperBound("")).toBeUndefined();
    expect(prefixUpperBound("\u{10FFFF}")).toBeUndefined();
    expect(prefixUpperBound("a\uD7FF")).toBe("a\uE000");
  });

  it("prefixRangeEnd bounds exactly the byte strings with the prefix", () => {
    fc.assert(
      fc.property(keyString, keyString, (prefix, candidate) => {
        const end = prefixRangeEnd(Buffer.from(prefix));
        const bytes = Buffer.from(candidate);
        const inRange =
          Buffer.compare(bytes, Buffer.from(prefix)) >= 0 && (prefix === "" || Buffer.compare(bytes, end) < 0);
        expect(inRange).toBe(candidate.startsWith(prefix));
      }),
    );
    expect(prefixRangeEnd(Buffer.alloc(0))).toEqual(Buffer.from([0]));
    expect(prefixRangeEnd(Buffer.from([0x61, 0xff]))).toEqual(Buffer.from([0x62]));
  });

  it("scanLowerBound takes the greatest bound, the exclusive one on a tie", () => {
    expect(scanLowerBound("p/")).toEqual({ key: "p/", exclusive: false });
    expect(scanLowerBound("p/", "p/b", "p/a")).toEqual({ key: "p/b", exclusive: false });
    expect(scanLowerBound("p/", "p/b", "p/b")).toEqual({ key: "p/b", exclusive: true });
    expect(scanLowerBound("p/", "a", "b")).toEqual({ key: "p/", exclusive: false });
  });
});
