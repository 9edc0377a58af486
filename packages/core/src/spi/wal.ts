// Primary-WAL provider SPI (version 1), split by role: a writer that freezes and persists exact bytes, a reader
// that returns the exact entries of a target. Providers never touch the stream head; core owns commit. What a
// reader may offer beyond the minimal contract sits in one optional object, `WalReader.accelerations`
// (docs/architecture.md §2.1).
import type { AppendEntry, PayloadFormat } from "../domain/append-types.js";
import type { ReadTarget, ReadTargetType } from "../domain/read-target.js";
import type { PrimaryWalKind } from "../domain/storage-profile.js";
import type { DurabilityGate } from "./durability-gate.js";
import type { KeyValue, MetadataStore, RevisionCompare, WriteOp } from "./metadata-store.js";

export const WAL_SPI_VERSION = 1;

/** Everything a writer needs to freeze one physical attempt. */
export interface WalWriteRequest {
  readonly streamId: string;
  /** Process-local attempt id; part of the physical attempt identity. */
  readonly attemptId: string;
  readonly writerId: string;
  readonly writerEpoch: number;
  readonly expectedStartOffset: number;
  readonly payloadFormat: PayloadFormat;
  /** Caller-owned entries; `prepare` copies what it keeps, unless `payloadsHandedOver`. */
  readonly entries: readonly AppendEntry[];
  /**
   * True when nobody modifies the entry payloads any more (every merged batch set `handOverPayloads`): `prepare`
   * may keep references to them instead of copying. Absent means false.
   */
  readonly payloadsHandedOver?: boolean;
}

/**
 * A frozen physical attempt. Invariant: persisting it twice writes the same bytes to the same target identity
 * (a retry never changes payload, range or counts).
 */
export interface PreparedWrite {
  readonly request: WalWriteRequest;
  /** Deterministic physical attempt identity (e.g. the object key); stable across retries of this attempt. */
  readonly physicalAttemptKey: string;
  readonly entryCount: number;
  readonly recordCount: number;
  readonly logicalBytes: number;
  /** CRC32C over the concatenated entry payloads, in order. */
  readonly payloadChecksum: number;
}

/** Metadata conditions and writes the head-commit transaction must include to protect the physical target. */
export interface TargetProtection {
  readonly compares: readonly RevisionCompare[];
  readonly writes: readonly WriteOp[];
}

/**
 * A durable physical target: bytes are durable, but not yet a committed logical range. With `gate`, the bytes
 * are durable once the gate opens: the head transaction naming them carries it as its `after`.
 */
export interface PersistedWrite {
  readonly prepared: PreparedWrite;
  readonly readTarget: ReadTarget;
  readonly gate?: DurabilityGate;
}

export interface WalIoOptions {
  readonly signal?: AbortSignal;
}

/**
 * Writer role. Invariants:
 * - `prepare` does no I/O; `persist` is the only physical write and is idempotent per prepared attempt.
 * - `protect` returns the protection (root/protection records) that must be committed in the same transaction as
 *   the head, and may read metadata to validate the root (closing the mark/create race); it writes nothing that
 *   makes the target visible.
 * - A provider never guesses offsets and never writes the head, intents or indexes.
 */
export interface WalWriter {
  readonly spiVersion: typeof WAL_SPI_VERSION;
  readonly walKind: PrimaryWalKind;
  prepare(request: WalWriteRequest): PreparedWrite;
  persist(prepared: PreparedWrite, options?: WalIoOptions): Promise<PersistedWrite>;
  protect(
    persisted: PersistedWrite,
    commitId: string,
    metadata: MetadataStore,
    options?: WalIoOptions,
  ): Promise<TargetProtection>;
  /**
   * Optional: classifies a lost head transaction whose head compare held but one of this writer's protection
   * compares failed. `current` holds the current values of the protection compare keys (absent keys are missing),
   * read back by the same failed transaction — no extra round trip. "FENCED": the target can never be committed by
   * this writer (e.g. a newer owner sealed it) ⇒ FENCED_APPEND, KNOWN_NOT_COMMITTED, not retryable;
   * "RETRY" or undefined (or no hook): METADATA_CONDITION_FAILED, KNOWN_NOT_COMMITTED, retryable. Pure: no I/O.
   */
  classifyProtectionConflict?(
    persisted: PersistedWrite,
    current: ReadonlyMap<string, KeyValue>,
  ): ProtectionConflictVerdict | undefined;
}

/** What a failed protection compare means for the writer (see `WalWriter.classifyProtectionConflict`). */
export type ProtectionConflictVerdict = "FENCED" | "RETRY";

/**
 * One entry as stored in a target: exact bytes and the record count it was written with. `payload` may be a view
 * shared with the reader's cache: callers must treat it as read-only.
 */
export interface StoredEntry {
  readonly recordCount: number;
  readonly payload: Uint8Array;
}

/**
 * Reader role. Invariant: returns exactly the entries written to the target, in order, verified against the
 * target's checksum; corruption raises a checksum-mismatch error, never wrong data.
 */
export interface WalReader {
  readonly spiVersion: typeof WAL_SPI_VERSION;
  readonly targetTypes: readonly ReadTargetType[];
  readEntries(target: ReadTarget, options?: WalIoOptions): Promise<readonly StoredEntry[]>;
  /**
   * Optional accelerations (see {@link WalReaderAccelerations}); absent on readers that offer none. The object is
   * fixed for the reader's lifetime. Callers must work without it.
   */
  readonly accelerations?: WalReaderAccelerations;
}

/**
 * What a `WalReader` may offer beyond the minimal contract. None changes what a read returns; a caller must work
 * (with more I/O) against a reader that offers none of it, calling `readEntries` once per target.
 */
export interface WalReaderAccelerations {
  /**
   * Several targets at once (e.g. adjacent slices of one object in one GET), one promise per target in order, each
   * settling on its own with exactly what `readEntries` would return for it. The read path hands all the targets
   * one read step needs from this reader to one call.
   */
  readEntriesMany?(
    targets: readonly ReadTarget[],
    options?: WalIoOptions,
  ): ReadonlyArray<Promise<readonly StoredEntry[]>>;
}
