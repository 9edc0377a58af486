// Maps object keys to relative paths under the filesystem store's objects directory, injectively and without any
// way out of that directory: each "/"-separated key segment becomes one path component in which only
// [A-Za-z0-9_-] and non-leading "." are kept and every other UTF-8 byte is written %XX (uppercase hex), so no
// component is ever "", "." or ".." or contains a separator. Object files carry the suffix "~obj" ("~" never
// appears in an encoded segment), so a key and a "folder" of other keys ("a" and "a/b") can coexist.
import path from "node:path";
import { ErrorCode, NereusError, decodeStrictUtf8 } from "@nereus/core";
import { assertObjectKey, hasControlCharacter } from "../object-keys/assert-object-key.js";

/** Suffix of object files; directories never carry it. */
export const OBJECT_FILE_SUFFIX = "~obj";
/** Longest encoded segment, so that segment + suffix fits the common 255-byte file name limit. */
const MAX_ENCODED_SEGMENT_BYTES = 255 - OBJECT_FILE_SUFFIX.length;

const HEX = "0123456789ABCDEF";

function isKept(byte: number, index: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    byte === 0x2d ||
    byte === 0x5f ||
    (byte === 0x2e && index > 0)
  );
}

/** Value of an uppercase hex digit's char code, or -1 (also for NaN, past the end of a string). */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  return -1;
}

/** A segment that encodes to itself: only kept ASCII characters, no leading ".". */
const PLAIN_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** Encodes one key segment (non-empty, not "." or ".."); undefined when the result would be too long. */
function encodeSegment(segment: string): string | undefined {
  // Most keys are plain (ids, hex, base32): no per-byte work, no new string.
  if (PLAIN_SEGMENT.test(segment)) return segment.length > MAX_ENCODED_SEGMENT_BYTES ? undefined : segment;
  const bytes = Buffer.from(segment, "utf8");
  let out = "";
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] ?? 0;
    out += isKept(byte, index) ? String.fromCharCode(byte) : `%${HEX[byte >> 4] ?? ""}${HEX[byte & 15] ?? ""}`;
  }
  return out.length > MAX_ENCODED_SEGMENT_BYTES ? undefined : out;
}

/**
 * Codec between keys and paths. Invariants: `decodeSegment(encode(s)) === s` for every valid segment, and
 * `decodeSegment` accepts only canonical encodings, so two different names never decode to the same segment.
 */
export const fileSystemKeyPath = {
  /**
   * The object file path of `key`, relative to the objects directory. Throws `INVALID_ARGUMENT` for keys that
   * `assertObjectKey` rejects or whose encoded segment exceeds the file name limit.
   */
  objectPath(key: string): string {
    assertObjectKey(key);
    const segments = key.split("/").map((segment) => {
      const encoded = encodeSegment(segment);
      if (encoded === undefined) {
        throw new NereusError(
          ErrorCode.INVALID_ARGUMENT,
          `object key segment is too long for a file name: ${JSON.stringify(segment.slice(0, 64))}…`,
          {
            retryable: false,
          },
        );
      }
      return encoded;
    });
    const last = segments.length - 1;
    segments[last] = `${segments[last] ?? ""}${OBJECT_FILE_SUFFIX}`;
    return path.join(...segments);
  },

  /** The directory path of complete key segments (a listing prefix up to its last "/"), or undefined if none can exist. */
  directoryPath(segments: readonly string[]): string | undefined {
    const encoded: string[] = [];
    for (const segment of segments) {
      if (segment.length === 0 || segment === "." || segment === "..") return undefined;
      const name = encodeSegment(segment);
      if (name === undefined) return undefined;
      encoded.push(name);
    }
    return encoded.length === 0 ? "" : path.join(...encoded);
  },

  /** The key segment a directory entry name stands for, or undefined when the name is not a canonical encoding. */
  decodeSegment(name: string): string | undefined {
    if (name.length === 0 || name.length > MAX_ENCODED_SEGMENT_BYTES) return undefined;
    const bytes: number[] = [];
    for (let index = 0; index < name.length;) {
      const code = name.charCodeAt(index);
      if (code === 0x25) {
        const high = hexDigit(name.charCodeAt(index + 1));
        const low = hexDigit(name.charCodeAt(index + 2));
        if (high < 0 || low < 0) return undefined;
        const byte = high * 16 + low;
        if (isKept(byte, bytes.length)) return undefined;
        bytes.push(byte);
        index += 3;
      } else {
        if (!isKept(code, bytes.length)) return undefined;
        bytes.push(code);
        index += 1;
      }
    }
    try {
      const segment = decodeStrictUtf8(Uint8Array.from(bytes));
      // Keys never contain control characters (object-keys/assert-object-key.ts), so no canonical name decodes to one.
      return segment === "." || segment === ".." || hasControlCharacter(segment) ? undefined : segment;
    } catch {
      return undefined;
    }
  },
} as const;
