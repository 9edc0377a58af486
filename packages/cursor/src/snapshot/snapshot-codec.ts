// The NCS1 binary format of a cursor snapshot object (layout documented once the codec lands).
import { ErrorCode, NereusError } from "@nereus/core";
import type { CursorSnapshotContent } from "../domain/snapshot-content.js";

/** What the root's SnapshotReference and the object key pin; `decodeCursorSnapshot` checks every field. */
export interface SnapshotExpectation {
  readonly snapshotId: string;
  readonly streamId: string;
  readonly cursorNameHash: string;
  readonly cursorGeneration: number;
  /** Exact byte length of the object. */
  readonly sizeBytes: number;
  /** CRC32C of the whole object. */
  readonly crc32c: number;
  readonly sourceMutationSequence: number;
  readonly baseMarkDeleteOffset: number;
  /** The object key, named in error messages (optional). */
  readonly objectKey?: string;
}

/** Encodes `content` (validated first; METADATA_INVARIANT_VIOLATION when it breaks an invariant). */
export function encodeCursorSnapshot(content: CursorSnapshotContent): Uint8Array {
  throw new NereusError(
    ErrorCode.UNSUPPORTED_FORMAT,
    `encodeCursorSnapshot(${content.snapshotId}) is not implemented yet`,
  );
}

/** Decodes and verifies a snapshot object against `expected`; METADATA_INVARIANT_VIOLATION on any mismatch. */
export function decodeCursorSnapshot(bytes: Uint8Array, expected: SnapshotExpectation): CursorSnapshotContent {
  throw new NereusError(
    ErrorCode.UNSUPPORTED_FORMAT,
    `decodeCursorSnapshot(${expected.snapshotId}, ${String(bytes.length)} bytes) is not implemented yet`,
  );
}
