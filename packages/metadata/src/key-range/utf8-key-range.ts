// Key ranges in UTF-8 byte order, the order every MetadataStore scans in: the lower bound a scan starts from and the
// exclusive upper bound of a prefix, as bytes (etcd `range_end`) or as a string (SQLite, whose BINARY collation on a
// UTF-8 database compares the same bytes). Pure functions; no I/O.

/** Byte-order comparison of two well-formed strings by their UTF-8 encodings (differs from `<` above U+FFFF). */
export function compareUtf8(left: string, right: string): number {
  // Without encoding: UTF-16 code units compare like code points (hence like UTF-8 bytes) except where a surrogate
  // (a code point above U+FFFF) meets a unit in U+E000..U+FFFF, so surrogates rank above every other unit.
  const shared = Math.min(left.length, right.length);
  for (let index = 0; index < shared; index++) {
    const x = left.charCodeAt(index);
    const y = right.charCodeAt(index);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return left.length - right.length;
}

function codePointRank(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}

/** The first key a scan may return: the greatest of `prefix` (inclusive), `startAt` (inclusive), `startAfter` (exclusive). */
export interface ScanLowerBound {
  readonly key: string;
  readonly exclusive: boolean;
}

/** Combines the bounds of a scan; with `startAt == startAfter` the exclusive bound wins. */
export function scanLowerBound(prefix: string, startAt?: string, startAfter?: string): ScanLowerBound {
  let bound: ScanLowerBound = { key: prefix, exclusive: false };
  if (startAt !== undefined && compareUtf8(startAt, bound.key) > 0) bound = { key: startAt, exclusive: false };
  if (startAfter !== undefined && compareUtf8(startAfter, bound.key) >= 0) bound = { key: startAfter, exclusive: true };
  return bound;
}

/**
 * etcd `range_end` for a prefix: the prefix bytes with the last byte below 0xff incremented and what follows dropped.
 * The empty prefix (and an all-0xff one, which UTF-8 never produces) yields `[0x00]`, etcd's "to the end of the keyspace".
 */
export function prefixRangeEnd(prefix: Uint8Array): Buffer {
  const end = Buffer.from(prefix);
  for (let index = end.length - 1; index >= 0; index--) {
    const byte = end[index] as number;
    if (byte < 0xff) {
      end[index] = byte + 1;
      return end.subarray(0, index + 1);
    }
  }
  return Buffer.from([0]);
}

const MAX_CODE_POINT = 0x10ffff;

/**
 * The smallest string greater than every string starting with `prefix`, or `undefined` when there is none (empty
 * prefix, or only U+10FFFF characters). Built by incrementing the last code point (skipping surrogates), which in
 * UTF-8 byte order bounds the prefix range exactly: `s.startsWith(prefix)` iff `prefix <= s < bound`.
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const codePoints = Array.from(prefix, (character) => character.codePointAt(0) as number);
  while (codePoints.length > 0) {
    const last = codePoints.pop() as number;
    if (last < MAX_CODE_POINT) {
      const next = last === 0xd7ff ? 0xe000 : last + 1;
      return [...codePoints, next].map((codePoint) => String.fromCodePoint(codePoint)).join("");
    }
  }
  return undefined;
}
