// The durable records of the cursor package, as plain values. Codecs live in src/records; every field is validated
// there. One CursorStateRecord per cursor is the only ack truth; one CursorRetentionRecord per stream holds the
// retention floor; one CursorOwnerRecord per stream names the owner session every cursor write is fenced on.
import type { AckRange, PartialAck } from "./ack-types.js";

export type CursorLifecycle = "ACTIVE" | "DELETED";

/** Where a cursor's spilled ack state lives: one immutable snapshot object, verified on every read. */
export interface SnapshotReference {
  /** Object key in the ObjectStore (see `snapshotObjectKey`). */
  readonly objectKey: string;
  /** 32 lowercase hex digits, random per snapshot; part of the object key and of the snapshot header. */
  readonly snapshotId: string;
  readonly sizeBytes: number;
  /** CRC32C of the whole object. */
  readonly crc32c: number;
  /** The root's mutationSequence that first referenced this snapshot. */
  readonly sourceMutationSequence: number;
  /** The markDeleteOffset the snapshot was cut at; every range in it is at or above this. */
  readonly baseMarkDeleteOffset: number;
}

/**
 * The root of one cursor: every mutation is one CAS on this record's key.
 * Invariants: `cursorGeneration >= 1`, `mutationSequence >= 1`, `ackStateEpoch >= 1`; inline ranges sorted, disjoint,
 * non-adjacent, each starting above `markDeleteOffset` (a range starting at it is folded into it); inline partials
 * sorted by offset, `offset >= markDeleteOffset`, not inside an inline range, canonical; a DELETED record has no
 * snapshot, no inline state and no properties.
 * Effective ack state = snapshot (clipped to markDelete) ∪ inline ranges; an inline partial replaces the snapshot's
 * partial for its offset; a whole ack (either side) wins over any partial.
 */
export interface CursorStateRecord {
  readonly streamId: string;
  /** Exact name as the user gave it. */
  readonly cursorName: string;
  /** `cursorNameHash(cursorName)`: the key component. */
  readonly cursorNameHash: string;
  /** Session of the owner that wrote this version (32 hex digits). */
  readonly ownerSessionId: string;
  readonly cursorGeneration: number;
  readonly lifecycle: CursorLifecycle;
  readonly mutationSequence: number;
  readonly ackStateEpoch: number;
  /** Attempt id of the last protection intent that wrote this root ("" when none). */
  readonly lastProtectionAttemptId: string;
  /** First entry offset not cumulatively acknowledged. */
  readonly markDeleteOffset: number;
  readonly snapshot: SnapshotReference | undefined;
  readonly inlineRanges: readonly AckRange[];
  readonly inlinePartials: readonly PartialAck[];
  /** Properties attached to the mark-delete position (int64 values). */
  readonly positionProperties: ReadonlyMap<string, bigint>;
  /** Properties of the cursor itself. */
  readonly cursorProperties: ReadonlyMap<string, string>;
  readonly createdAtMillis: number;
  /** Never decreases: max(previous, now). */
  readonly updatedAtMillis: number;
  /** Set exactly when lifecycle is DELETED. */
  readonly deletedAtMillis: number | undefined;
}

export type RetentionLifecycle = "ACTIVE" | "PROTECTION_PENDING" | "TRIM_PENDING";

export type ProtectionKind = "CREATE" | "RECREATE" | "BACKWARD_RESET";

/** A cursor transition that may need data below the current floor; completed exactly, even after a crash. */
export interface ProtectionIntent {
  /** 32 hex digits. */
  readonly attemptId: string;
  readonly kind: ProtectionKind;
  readonly cursorName: string;
  readonly cursorNameHash: string;
  /** Generation the cursor root must have before (0: absent). */
  readonly expectedGeneration: number;
  /** Generation the cursor root has after. */
  readonly targetGeneration: number;
  readonly targetMarkDeleteOffset: number;
  readonly targetPartial: PartialAck | undefined;
  /** Cursor properties of a created/recreated cursor (empty for a reset). */
  readonly initialProperties: ReadonlyMap<string, string>;
  readonly createdAtMillis: number;
}

/** A trim of the stream in progress; replayed with exactly this offset after a crash. */
export interface TrimIntent {
  readonly attemptId: string;
  readonly offset: number;
  readonly reason: string;
}

/**
 * One per stream. Invariant: stream trim <= lastCompletedTrimOffset <= protectedFloorOffset <= markDeleteOffset of
 * every ACTIVE cursor. `pendingProtection` is set exactly when PROTECTION_PENDING, `pendingTrim` exactly when
 * TRIM_PENDING.
 */
export interface CursorRetentionRecord {
  readonly streamId: string;
  readonly ownerSessionId: string;
  readonly lifecycle: RetentionLifecycle;
  readonly mutationSequence: number;
  readonly protectedFloorOffset: number;
  readonly lastCompletedTrimOffset: number;
  readonly pendingProtection: ProtectionIntent | undefined;
  readonly pendingTrim: TrimIntent | undefined;
  readonly updatedAtMillis: number;
}

/**
 * One per stream: the owner session. Every cursor and retention write compares this record's exact bytes in the
 * same transaction, so a write of an older owner fails once a new owner claimed the stream.
 */
export interface CursorOwnerRecord {
  readonly streamId: string;
  readonly ownerSessionId: string;
  /** +1 per claim. */
  readonly claimSequence: number;
  readonly claimedAtMillis: number;
}
