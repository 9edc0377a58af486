// Reads the snapshot object a cursor root references and turns it into the AckBase of the root's view. Strict: the
// bytes must match the reference exactly (size, CRC32C, identity fields), else the read is reported corrupt. It
// does not decide what a missing or corrupt object means (hydration re-reads the root first); transient store
// errors propagate as they are (retryable). The returned base owns copies of the decoded arrays.
import { ErrorCode, NereusError } from "@nereus/core";
import { type AckBase, ackBaseFromSnapshot } from "../ack-state/ack-base.js";
import type { CursorStateRecord, SnapshotReference } from "../domain/cursor-records.js";
import type { CursorEnvironment } from "../store/owner-context.js";
import { decodeCursorSnapshot, snapshotExpectationOf } from "./snapshot-codec.js";

/** How one snapshot read ended: the base, or why the object cannot be used. */
export type SnapshotRead =
  | { readonly kind: "read"; readonly base: AckBase }
  | { readonly kind: "missing"; readonly error: NereusError }
  | { readonly kind: "corrupt"; readonly error: NereusError };

/**
 * Reads `root.snapshot` (which must be set). Throws METADATA_LIMIT_EXCEEDED for a reference larger than
 * `limits.maxSnapshotBytes`, and any transient store error unchanged.
 */
export async function readSnapshot(
  env: CursorEnvironment,
  root: CursorStateRecord,
  reference: SnapshotReference,
  options: { readonly signal?: AbortSignal } = {},
): Promise<SnapshotRead> {
  if (reference.sizeBytes > env.limits.maxSnapshotBytes) {
    throw new NereusError(
      ErrorCode.METADATA_LIMIT_EXCEEDED,
      `cursor snapshot ${reference.objectKey} is ${String(reference.sizeBytes)} bytes; limits.maxSnapshotBytes is ${String(env.limits.maxSnapshotBytes)}`,
      { retryable: false },
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await env.objects.get(reference.objectKey, undefined, { signal: options.signal });
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.OBJECT_NOT_FOUND)) {
      return { kind: "missing", error: invariantViolation(root, reference, "the object does not exist", error) };
    }
    if (NereusError.hasCode(error, ErrorCode.OBJECT_CHECKSUM_MISMATCH)) {
      return { kind: "corrupt", error: invariantViolation(root, reference, "the store reports a bad checksum", error) };
    }
    throw error;
  }
  try {
    const content = decodeCursorSnapshot(bytes, snapshotExpectationOf(reference, root));
    return { kind: "read", base: ackBaseFromSnapshot(content) };
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.METADATA_INVARIANT_VIOLATION)) return { kind: "corrupt", error };
    if (NereusError.hasCode(error, ErrorCode.DECODE_ERROR)) {
      return { kind: "corrupt", error: invariantViolation(root, reference, error.message, error) };
    }
    throw error;
  }
}

/** True when both references name the same object with the same pinned fields. */
export function sameSnapshotReference(
  left: SnapshotReference | undefined,
  right: SnapshotReference | undefined,
): boolean {
  if (left === undefined || right === undefined) return left === right;
  return (
    left.objectKey === right.objectKey &&
    left.snapshotId === right.snapshotId &&
    left.sizeBytes === right.sizeBytes &&
    left.crc32c === right.crc32c &&
    left.sourceMutationSequence === right.sourceMutationSequence &&
    left.baseMarkDeleteOffset === right.baseMarkDeleteOffset
  );
}

function invariantViolation(
  root: CursorStateRecord,
  reference: SnapshotReference,
  reason: string,
  cause: unknown,
): NereusError {
  return new NereusError(
    ErrorCode.METADATA_INVARIANT_VIOLATION,
    `cursor ${root.cursorNameHash} of stream ${root.streamId} references snapshot ${reference.objectKey}: ${reason}`,
    { retryable: false, cause },
  );
}
