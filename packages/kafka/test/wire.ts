// An independent, imperative composer of Kafka wire bytes for golden fixtures: each helper returns lowercase hex
// for one field written exactly as the spec grammar says (int16 vs compact lengths, null markers, tag buffers).
// It shares no code with src/protocol, so a golden test compares two separate readings of the grammar.

const utf8 = new TextEncoder();

function fixed(value: bigint, bytes: number): string {
  const modulus = 1n << BigInt(bytes * 8);
  return (((value % modulus) + modulus) % modulus).toString(16).padStart(bytes * 2, "0");
}

/** INT8 */
export const i8 = (value: number): string => fixed(BigInt(value), 1);
/** INT16 */
export const i16 = (value: number): string => fixed(BigInt(value), 2);
/** INT32 */
export const i32 = (value: number): string => fixed(BigInt(value), 4);
/** INT64 */
export const i64 = (value: number | bigint): string => fixed(BigInt(value), 8);
/** BOOLEAN */
export const bool = (value: boolean): string => (value ? "01" : "00");
/** UUID (hyphenated in, 16 bytes out) */
export const uuid = (value: string): string => value.replaceAll("-", "").toLowerCase();

/** UNSIGNED_VARINT */
export function uvarint(value: number): string {
  let out = "";
  let rest = value;
  while (rest >= 0x80) {
    out += ((rest % 0x80) | 0x80).toString(16).padStart(2, "0");
    rest = Math.floor(rest / 0x80);
  }
  return out + rest.toString(16).padStart(2, "0");
}

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** STRING / NULLABLE_STRING, or COMPACT_(NULLABLE_)STRING when `flexible`. */
export function str(flexible: boolean, value: string | null): string {
  if (value === null) return flexible ? "00" : "ffff";
  const bytes = utf8.encode(value);
  return (flexible ? uvarint(bytes.length + 1) : i16(bytes.length)) + hexOf(bytes);
}

/** BYTES / NULLABLE_BYTES / RECORDS, or the COMPACT_ form when `flexible`; `value` is hex. */
export function bytes(flexible: boolean, value: string | null): string {
  if (value === null) return flexible ? "00" : "ffffffff";
  const length = value.length / 2;
  return (flexible ? uvarint(length + 1) : i32(length)) + value;
}

/** ARRAY / COMPACT_ARRAY of already-encoded items (null = null array). */
export function arr(flexible: boolean, items: readonly string[] | null): string {
  if (items === null) return flexible ? "00" : "ffffffff";
  return (flexible ? uvarint(items.length + 1) : i32(items.length)) + items.join("");
}

/** The tag buffer that ends a struct in flexible versions: nothing when not flexible. `fields` are [tag, hex]. */
export function tags(flexible: boolean, fields: ReadonlyArray<readonly [number, string]> = []): string {
  if (!flexible) return "";
  const sorted = [...fields].sort((left, right) => left[0] - right[0]);
  return uvarint(sorted.length) + sorted.map(([tag, data]) => uvarint(tag) + uvarint(data.length / 2) + data).join("");
}

/** Concatenates field encodings, skipping `false`/`undefined` (fields absent in the version). */
export function cat(...parts: ReadonlyArray<string | false | undefined>): string {
  return parts.filter((part): part is string => typeof part === "string").join("");
}
