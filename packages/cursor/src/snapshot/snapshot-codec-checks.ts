// The invariants of CursorSnapshotContent (see its TSDoc), checked before a snapshot is encoded; the decoder gets
// the range invariants from the format itself and checks the partials with the same functions. Pure; no I/O.
import { encodeStrictUtf8 } from "@nereus/core";
import type { PartialAck } from "../domain/ack-types.js";
import type { CursorSnapshotContent } from "../domain/snapshot-content.js";
import { isHex128 } from "../keys/cursor-keys.js";
import { partialAckProblem } from "../records/partial-ack-form.js";
import type { SnapshotErrors } from "./snapshot-codec-errors.js";

/** Largest UTF-8 length of a stream id in a snapshot header (u16 length prefix). */
const MAX_SNAPSHOT_STREAM_ID_BYTES = 0xffff;
const U32_MAX = 0xffff_ffff;

function natural(value: unknown, min: number): boolean {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= min;
}

/** The UTF-8 bytes of the content's stream id, after checking every header field. */
export function checkHeaderFields(content: CursorSnapshotContent, errors: SnapshotErrors): Uint8Array {
  errors.require(isHex128(content.snapshotId), "snapshotId", "must be 32 lowercase hex digits");
  errors.require(isHex128(content.cursorNameHash), "cursorNameHash", "must be 32 lowercase hex digits");
  errors.require(typeof content.streamId === "string" && content.streamId.length > 0, "streamId", "must not be empty");
  let streamId: Uint8Array;
  try {
    streamId = encodeStrictUtf8(content.streamId, "streamId");
  } catch (cause) {
    throw errors.fail("streamId", "contains an unpaired UTF-16 surrogate", cause);
  }
  errors.require(streamId.length <= MAX_SNAPSHOT_STREAM_ID_BYTES, "streamId", "is longer than 65,535 UTF-8 bytes");
  errors.require(natural(content.cursorGeneration, 1), "cursorGeneration", "must be a safe integer >= 1");
  errors.require(natural(content.sourceMutationSequence, 1), "sourceMutationSequence", "must be a safe integer >= 1");
  errors.require(natural(content.baseMarkDeleteOffset, 0), "baseMarkDeleteOffset", "must be a safe integer >= 0");
  errors.require(natural(content.createdAtMillis, 0), "createdAtMillis", "must be a safe integer >= 0");
  return streamId;
}

/** Checks that the ranges are sorted, disjoint, non-adjacent safe-integer ranges starting above the base. */
export function checkRanges(content: CursorSnapshotContent, errors: SnapshotErrors): void {
  const { rangeStarts: starts, rangeEnds: ends } = content;
  errors.require(
    starts instanceof Float64Array && ends instanceof Float64Array && starts.length === ends.length,
    "ranges",
    "rangeStarts and rangeEnds must be Float64Arrays of the same length",
  );
  errors.require(starts.length <= U32_MAX, "ranges", "more than 2^32-1 ranges");
  let floor = content.baseMarkDeleteOffset + 1;
  for (let index = 0; index < starts.length; index += 1) {
    const start = starts[index] as number;
    const end = ends[index] as number;
    if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && start >= floor && end > start)) {
      throw errors.fail(
        `ranges[${String(index)}]`,
        `[${String(start)}, ${String(end)}) is not a non-empty safe-integer range above ${String(floor - 1)} ` +
          "(ranges are sorted, disjoint, non-adjacent and start above baseMarkDeleteOffset)",
      );
    }
    floor = end + 1;
  }
}

/**
 * Checks that the partials are canonical, strictly ascending, at or above the base and outside every range
 * (the ranges must already be valid).
 */
export function checkPartials(
  base: number,
  starts: Float64Array,
  ends: Float64Array,
  partials: readonly PartialAck[],
  errors: SnapshotErrors,
): void {
  errors.require(Array.isArray(partials), "partials", "must be an array");
  errors.require(partials.length <= U32_MAX, "partials", "more than 2^32-1 partials");
  let floor = base;
  let rangeIndex = 0;
  for (let index = 0; index < partials.length; index += 1) {
    const partial = partials[index] as PartialAck;
    const field = `partials[${String(index)}]`;
    const problem = partialAckProblem(partial);
    if (problem !== undefined) throw errors.fail(field, problem);
    errors.require(
      partial.offset >= floor,
      field,
      `offset ${String(partial.offset)} is below ${String(floor)} (partials ascend from baseMarkDeleteOffset)`,
    );
    while (rangeIndex < ends.length && (ends[rangeIndex] as number) <= partial.offset) rangeIndex += 1;
    errors.require(
      rangeIndex >= starts.length || (starts[rangeIndex] as number) > partial.offset,
      field,
      `offset ${String(partial.offset)} lies inside a range`,
    );
    floor = partial.offset + 1;
  }
}
