// JSON text of the admin API with 64-bit integers kept exact. Pulsar's admin clients send and expect ledger and
// entry ids as JSON numbers up to 2^63-1 (MessageId.latest), beyond what a JavaScript number holds: parsing keeps
// an integer outside the safe range as a bigint, and stringifying writes a bigint as a plain number. Everything else
// follows JSON.parse / JSON.stringify (strict RFC 8259 grammar, duplicate keys: the last wins). Pure.
import { ErrorCode, NereusError } from "@nereus/core";

/** A parsed JSON value: integers beyond ±(2^53-1) are bigints. */
export type JsonValue = null | boolean | number | bigint | string | readonly JsonValue[] | JsonObject;
/** A parsed JSON object (a null-prototype record). */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** Deepest nesting of arrays and objects accepted (bounds the parser's recursion). */
const MAX_DEPTH = 64;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// A control character (U+0000–U+001F) must be escaped inside a JSON string.
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const WHITESPACE = /[ \t\n\r]*/y;

function malformed(text: string, at: number, what: string): NereusError {
  const near = JSON.stringify(text.slice(at, at + 16));
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `malformed JSON at character ${String(at)} (${near}): ${what}`, {
    retryable: false,
  });
}

/** A recursive-descent reader over one JSON text. */
class JsonReader {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  document(): JsonValue {
    const value = this.#value(0);
    this.#skipWhitespace();
    if (this.#at !== this.#text.length) throw malformed(this.#text, this.#at, "unexpected text after the value");
    return value;
  }

  #value(depth: number): JsonValue {
    this.#skipWhitespace();
    const char = this.#text[this.#at];
    if (char === "{") return this.#object(depth + 1);
    if (char === "[") return this.#array(depth + 1);
    if (char === '"') return this.#string();
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return this.#number();
    for (const [literal, value] of LITERALS) {
      if (this.#text.startsWith(literal, this.#at)) {
        this.#at += literal.length;
        return value;
      }
    }
    throw malformed(this.#text, this.#at, "expected a value");
  }

  #object(depth: number): JsonObject {
    this.#checkDepth(depth);
    this.#at += 1;
    const object: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;
    if (this.#consume("}")) return object;
    do {
      this.#skipWhitespace();
      if (this.#text[this.#at] !== '"') throw malformed(this.#text, this.#at, "expected a member name");
      const key = this.#string();
      if (!this.#consume(":")) throw malformed(this.#text, this.#at, "expected ':'");
      object[key] = this.#value(depth);
    } while (this.#consume(","));
    if (!this.#consume("}")) throw malformed(this.#text, this.#at, "expected ',' or '}'");
    return object;
  }

  #array(depth: number): JsonValue[] {
    this.#checkDepth(depth);
    this.#at += 1;
    const array: JsonValue[] = [];
    if (this.#consume("]")) return array;
    do array.push(this.#value(depth));
    while (this.#consume(","));
    if (!this.#consume("]")) throw malformed(this.#text, this.#at, "expected ',' or ']'");
    return array;
  }

  #string(): string {
    const token = this.#token(STRING, "malformed string");
    return JSON.parse(token) as string;
  }

  #number(): number | bigint {
    const token = this.#token(NUMBER, "malformed number");
    const value = Number(token);
    if (/^-?\d+$/.test(token) && !Number.isSafeInteger(value)) return BigInt(token);
    return value;
  }

  #token(pattern: RegExp, what: string): string {
    pattern.lastIndex = this.#at;
    const match = pattern.exec(this.#text);
    if (match === null) throw malformed(this.#text, this.#at, what);
    this.#at += match[0].length;
    return match[0];
  }

  #consume(char: string): boolean {
    this.#skipWhitespace();
    if (this.#text[this.#at] !== char) return false;
    this.#at += 1;
    return true;
  }

  #skipWhitespace(): void {
    WHITESPACE.lastIndex = this.#at;
    WHITESPACE.exec(this.#text);
    this.#at = WHITESPACE.lastIndex;
  }

  #checkDepth(depth: number): void {
    if (depth > MAX_DEPTH) throw malformed(this.#text, this.#at, `nested deeper than ${String(MAX_DEPTH)} levels`);
  }
}

const LITERALS: ReadonlyArray<readonly [string, JsonValue]> = [
  ["true", true],
  ["false", false],
  ["null", null],
];

/** Parses one JSON text; INVALID_ARGUMENT (with the character offset) for anything that is not exactly one value. */
export function parseJsonText(text: string): JsonValue {
  return new JsonReader(text).document();
}

/**
 * The JSON text of `value`: like JSON.stringify, with bigints written as numbers and non-finite numbers as null.
 * Object members whose value is undefined are left out. Values are plain data (no cycles, no toJSON).
 */
export function stringifyJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item: unknown) => stringifyJson(item)).join(",")}]`;
  const members: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${stringifyJson(member)}`);
  }
  return `{${members.join(",")}}`;
}
