// Rewrites the base offset (and optionally the partition leader epoch) of a stored batch, in a copy or in place. Both fields
// lie before the CRC's coverage, so the CRC stays valid and nothing else changes. This is how a broker serves a
// batch stored with base offset 0 at the offset it was appended at.
import { ErrorCode, NereusError } from "@nereus/core";
import { LOG_OVERHEAD_BYTES, RecordBatchOffset } from "./record-batch-header.js";

/** Options of {@link assignBaseOffset}. */
export interface AssignBaseOffsetOptions {
  /** Also set partitionLeaderEpoch (int32). */
  readonly partitionLeaderEpoch?: number;
  /** Rewrite `batch` itself (the caller owns it) instead of a copy. */
  readonly inPlace?: boolean;
}

/** `batch` with baseOffset `baseOffset`: a copy (the input is not modified) unless `inPlace`, then `batch` itself. */
export function assignBaseOffset(
  batch: Uint8Array,
  baseOffset: number,
  options: AssignBaseOffsetOptions = {},
): Uint8Array {
  if (!Number.isSafeInteger(baseOffset) || baseOffset < 0) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `base offset must be a non-negative safe integer, got ${String(baseOffset)}`,
    );
  }
  const epoch = options.partitionLeaderEpoch;
  if (epoch !== undefined && (!Number.isInteger(epoch) || epoch < -0x8000_0000 || epoch > 0x7fff_ffff)) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `partition leader epoch must be an int32, got ${String(epoch)}`);
  }
  const minimum = epoch === undefined ? LOG_OVERHEAD_BYTES : RecordBatchOffset.magic;
  if (batch.length < minimum) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `a batch of ${String(batch.length)} bytes has no room for its header`,
    );
  }
  const copy = options.inPlace === true ? batch : batch.slice();
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  view.setBigInt64(RecordBatchOffset.baseOffset, BigInt(baseOffset));
  if (epoch !== undefined) view.setInt32(RecordBatchOffset.partitionLeaderEpoch, epoch);
  return copy;
}
