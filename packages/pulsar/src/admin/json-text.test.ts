import { ErrorCode, NereusError } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseJsonText, stringifyJson } from "./json-text.js";

function refusal(text: string): string {
  try {
    parseJsonText(text);
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)) return error.message;
    throw error;
  }
  throw new Error(`${JSON.stringify(text)} was accepted`);
}

/** JSON values without integers beyond the safe range (JSON.parse reads those exactly). */
const safeJson = fc.jsonValue().filter((value) => !JSON.stringify(value).match(/\d{16,}/));

describe("parseJsonText", () => {
  test("reads what JSON.parse reads when every integer is safe", () => {
    fc.assert(
      fc.property(safeJson, (value) => {
        const text = JSON.stringify(value, undefined, 1);
        expect(parseJsonText(text)).toEqual(JSON.parse(text));
      }),
    );
  });

  test("keeps 64-bit integers exact", () => {
    expect(parseJsonText('{"ledgerId":9223372036854775807,"entryId":-9223372036854775808,"n":42}')).toEqual({
      ledgerId: 9223372036854775807n,
      entryId: -9223372036854775808n,
      n: 42,
    });
    expect(parseJsonText("[9007199254740991, 9007199254740992, 1e300, 1.5]")).toEqual([
      9007199254740991,
      9007199254740992n,
      1e300,
      1.5,
    ]);
  });

  test("a member named __proto__ is an ordinary member", () => {
    const parsed = parseJsonText('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  test("refuses anything that is not exactly one JSON value, naming where", () => {
    expect(refusal("")).toContain("at character 0");
    expect(refusal("{")).toContain("expected a member name");
    expect(refusal('{"a" 1}')).toContain("expected ':'");
    expect(refusal("[1,]")).toContain("expected a value");
    expect(refusal("[1 2]")).toContain("expected ',' or ']'");
    expect(refusal("01")).toContain("unexpected text after the value");
    expect(refusal("1 1")).toContain("unexpected text after the value");
    expect(refusal('"a\u0001"')).toContain("malformed string");
    expect(refusal("NaN")).toContain("expected a value");
    expect(refusal("-")).toContain("malformed number");
    expect(refusal("tru")).toContain("expected a value");
  });

  test("bounds nesting at 64 levels", () => {
    expect(parseJsonText("[".repeat(64) + "]".repeat(64))).toBeDefined();
    expect(refusal("[".repeat(65) + "]".repeat(65))).toContain("nested deeper than 64 levels");
    expect(refusal('{"a":'.repeat(100_000))).toContain("nested deeper than 64 levels");
  });

  test("fuzzed text is accepted exactly when JSON.parse accepts it", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'{}[]:,"\\ 0123456789-+.eEtrufalsn') }), (text) => {
        let expected = true;
        try {
          JSON.parse(text);
        } catch {
          expected = false;
        }
        let accepted = true;
        try {
          parseJsonText(text);
        } catch (error) {
          if (!NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT)) throw error;
          accepted = false;
        }
        expect(accepted).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("stringifyJson", () => {
  test("writes what JSON.stringify writes for plain data", () => {
    fc.assert(
      fc.property(safeJson, (value) => {
        expect(stringifyJson(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  test("writes bigints as numbers and leaves undefined members out", () => {
    const text = stringifyJson({ ledgerId: 2n ** 63n - 1n, entryId: -1n, gone: undefined, list: [undefined, 1] });
    expect(text).toBe('{"ledgerId":9223372036854775807,"entryId":-1,"list":[null,1]}');
    expect(parseJsonText(text)).toEqual({ ledgerId: 2n ** 63n - 1n, entryId: -1, list: [null, 1] });
  });

  test("a name that looks like a number stays a string", () => {
    expect(stringifyJson({ "\u0000123\u0000": "\u0000" })).toBe('{"\\u0000123\\u0000":"\\u0000"}');
  });
});
