// The two body sections of an NCS1 snapshot (layout in snapshot-codec.ts): sizes, writers and readers of the range
// and partial bodies, and the section frame (magic, body length, CRC) around each. Readers allocate only their
// results: two Float64Arrays for the ranges, one PartialAck (with its words) per partial.
import { crc32c } from "@nereus/core";
import type { PartialAck } from "../domain/ack-types.js";
import type { CursorSnapshotContent } from "../domain/snapshot-content.js";
import type { SnapshotErrors } from "./snapshot-codec-errors.js";
import { crcMismatch } from "./snapshot-codec-header.js";
import { FOOTER_BYTES, MIN_PARTIAL_BYTES, MIN_RANGE_BYTES, SECTION_OVERHEAD_BYTES } from "./snapshot-codec-layout.js";
import { VarintReader, varintSize, writeVarint } from "./snapshot-codec-varint.js";

/** Where a section's body lies in the object. */
export interface SectionBody {
  readonly start: number;
  readonly end: number;
}

/** Bytes of the range body: per range, the gap after the previous range (or the base) and the length minus one. */
export function rangeBodySize(content: CursorSnapshotContent): number {
  const { rangeStarts: starts, rangeEnds: ends } = content;
  let previousEnd = content.baseMarkDeleteOffset;
  let size = 0;
  for (let index = 0; index < starts.length; index += 1) {
    const start = starts[index] as number;
    const end = ends[index] as number;
    size += varintSize(start - previousEnd - 1) + varintSize(end - start - 1);
    previousEnd = end;
  }
  return size;
}

export function writeRangeBody(bytes: Uint8Array, at: number, content: CursorSnapshotContent): number {
  const { rangeStarts: starts, rangeEnds: ends } = content;
  let previousEnd = content.baseMarkDeleteOffset;
  let position = at;
  for (let index = 0; index < starts.length; index += 1) {
    const start = starts[index] as number;
    const end = ends[index] as number;
    position = writeVarint(bytes, position, start - previousEnd - 1);
    position = writeVarint(bytes, position, end - start - 1);
    previousEnd = end;
  }
  return position;
}

/** Bytes of the partial body: per partial, the offset gap, batchSize, word count, then the u64 words. */
export function partialBodySize(content: CursorSnapshotContent): number {
  let previous = content.baseMarkDeleteOffset - 1;
  let size = 0;
  for (const partial of content.partials) {
    size += varintSize(partial.offset - previous - 1) + varintSize(partial.batchSize);
    size += varintSize(partial.remaining.length) + 8 * partial.remaining.length;
    previous = partial.offset;
  }
  return size;
}

export function writePartialBody(
  bytes: Uint8Array,
  view: DataView,
  at: number,
  content: CursorSnapshotContent,
): number {
  let previous = content.baseMarkDeleteOffset - 1;
  let position = at;
  for (const partial of content.partials) {
    position = writeVarint(bytes, position, partial.offset - previous - 1);
    position = writeVarint(bytes, position, partial.batchSize);
    position = writeVarint(bytes, position, partial.remaining.length);
    for (const word of partial.remaining) {
      view.setBigUint64(position, word);
      position += 8;
    }
    previous = partial.offset;
  }
  return position;
}

/** Writes a section frame around a body of `bodyLength` bytes that `writeBody(at)` writes; returns the end. */
export function writeSection(
  bytes: Uint8Array,
  view: DataView,
  at: number,
  magic: number,
  bodyLength: number,
  writeBody: (at: number) => number,
): number {
  view.setUint32(at, magic);
  view.setUint32(at + 4, bodyLength);
  const bodyEnd = writeBody(at + 8);
  view.setUint32(bodyEnd, crc32c(bytes.subarray(at, bodyEnd)));
  return bodyEnd + 4;
}

/** Checks the frame of the section at `at` (magic, body length within the object, CRC) and returns its body. */
export function readSection(
  bytes: Uint8Array,
  view: DataView,
  at: number,
  magic: number,
  name: string,
  errors: SnapshotErrors,
): SectionBody {
  errors.require(at + SECTION_OVERHEAD_BYTES + FOOTER_BYTES <= bytes.length, name, "truncated");
  errors.require(view.getUint32(at) === magic, name, "bad section magic");
  const bodyLength = view.getUint32(at + 4);
  const end = at + 8 + bodyLength;
  errors.require(end + 4 + FOOTER_BYTES <= bytes.length, name, `body length ${String(bodyLength)} overruns the object`);
  const stored = view.getUint32(end);
  const computed = crc32c(bytes.subarray(at, end));
  errors.require(stored === computed, `${name} crc32c`, crcMismatch(stored, computed));
  return { start: at + 8, end };
}

/** Decodes `count` ranges above `base` from `body`; the body must hold exactly them. */
export function readRangeBody(
  bytes: Uint8Array,
  body: SectionBody,
  count: number,
  base: number,
  errors: SnapshotErrors,
): { starts: Float64Array; ends: Float64Array } {
  errors.require(
    count * MIN_RANGE_BYTES <= body.end - body.start,
    "rangeCount",
    `${String(count)} ranges cannot fit the section`,
  );
  const starts = new Float64Array(count);
  const ends = new Float64Array(count);
  const reader = new VarintReader(bytes, body.start, body.end);
  let previousEnd = base;
  for (let index = 0; index < count; index += 1) {
    const gap = reader.next();
    const extra = reader.next();
    const start = previousEnd + 1 + gap;
    const end = start + 1 + extra;
    if (gap < 0 || extra < 0 || !Number.isSafeInteger(end)) {
      throw errors.fail(
        `ranges[${String(index)}]`,
        `malformed varint or range end above 2^53-1 at byte ${String(reader.position)}`,
      );
    }
    starts[index] = start;
    ends[index] = end;
    previousEnd = end;
  }
  errors.require(reader.position === body.end, "range section", "bytes left after the last range");
  return { starts, ends };
}

/** Decodes `count` partials at or above `base` from `body` (canonical form is checked by the caller). */
export function readPartialBody(
  bytes: Uint8Array,
  view: DataView,
  body: SectionBody,
  count: number,
  base: number,
  errors: SnapshotErrors,
): PartialAck[] {
  errors.require(
    count * MIN_PARTIAL_BYTES <= body.end - body.start,
    "partialCount",
    `${String(count)} partials cannot fit the section`,
  );
  const partials: PartialAck[] = [];
  const reader = new VarintReader(bytes, body.start, body.end);
  let previous = base - 1;
  for (let index = 0; index < count; index += 1) {
    const field = `partials[${String(index)}]`;
    const gap = reader.next();
    const batchSize = reader.next();
    const wordCount = reader.next();
    const offset = previous + 1 + gap;
    if (gap < 0 || batchSize < 0 || wordCount < 0 || !Number.isSafeInteger(offset)) {
      throw errors.fail(field, `malformed varint or offset above 2^53-1 at byte ${String(reader.position)}`);
    }
    errors.require(
      wordCount * 8 <= body.end - reader.position,
      field,
      `${String(wordCount)} words overrun the section`,
    );
    const remaining: bigint[] = [];
    for (let word = 0; word < wordCount; word += 1) {
      remaining.push(view.getBigUint64(reader.position));
      reader.position += 8;
    }
    partials.push({ offset, batchSize, remaining });
    previous = offset;
  }
  errors.require(reader.position === body.end, "partial section", "bytes left after the last partial");
  return partials;
}
