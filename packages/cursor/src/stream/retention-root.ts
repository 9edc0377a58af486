// This session's copy of the stream's retention record and the one way it is written: a fenced CAS on the record's
// revision. Only the owner session writes the record, so a CAS that loses to anything but a newer owner means the
// stored record was changed behind this session's back: METADATA_INVARIANT_VIOLATION. A write whose outcome stayed
// unknown (an error after it was sent) leaves the copy stale until `sync` reads the stored version back.
import { ErrorCode, NereusError } from "@nereus/core";
import type { CursorRetentionRecord } from "../domain/cursor-records.js";
import { cursorRetentionKey } from "../keys/cursor-keys.js";
import { cursorRetentionCodec } from "../records/cursor-retention-codec.js";
import type { OwnerContext } from "../store/owner-context.js";
import { decodeVersioned, ownedPut, readOwnedKey, type Versioned } from "./owned-put.js";

/**
 * The retention record of one claimed stream. Invariant: unless `stale`, `current` is the stored version. Callers
 * serialize writes (one retention transition at a time per stream) and call `sync` before deciding on `current`.
 */
export class RetentionRoot {
  readonly owner: OwnerContext;
  readonly key: string;
  #current: Versioned<CursorRetentionRecord>;
  #stale = false;

  constructor(owner: OwnerContext, current: Versioned<CursorRetentionRecord>) {
    this.owner = owner;
    this.key = cursorRetentionKey(owner.env.cluster, owner.streamId);
    this.#current = current;
  }

  /** The record as last written or read. */
  get current(): CursorRetentionRecord {
    return this.#current.record;
  }

  /** Reads the stored record back when `stale` (or always with `force`); checks it is still this session's. */
  async sync(signal: AbortSignal | undefined, force = false): Promise<CursorRetentionRecord> {
    if (!this.#stale && !force) return this.current;
    const stored = await readOwnedKey(this.owner, this.key, signal);
    if (stored === undefined) throw this.#changed("the record is gone");
    const version = decodeVersioned(cursorRetentionCodec, stored);
    if (version.record.ownerSessionId !== this.owner.ownerSessionId) throw this.#changed("another session wrote it");
    if (force && !this.#stale && version.modRevision !== this.#current.modRevision) {
      throw this.#changed(
        `expected revision ${String(this.#current.modRevision)}, found ${String(version.modRevision)}`,
      );
    }
    this.#current = version;
    this.#stale = false;
    return version.record;
  }

  /**
   * Writes `next` over the current version. Throws CURSOR_FENCED when another session owns the stream, and
   * METADATA_INVARIANT_VIOLATION when the stored record is no longer the version this session holds.
   */
  async write(next: CursorRetentionRecord, signal: AbortSignal | undefined): Promise<CursorRetentionRecord> {
    if (this.#stale) throw new TypeError("RetentionRoot.write on a stale copy: call sync first");
    const bytes = cursorRetentionCodec.encode(next);
    this.#stale = true;
    const outcome = await ownedPut(this.owner, this.key, this.#current.modRevision, bytes, signal);
    if (!outcome.ok) {
      throw this.#changed(
        `expected revision ${String(this.#current.modRevision)}, found ${String(outcome.current?.modRevision ?? "none")}`,
      );
    }
    this.#current = { record: next, modRevision: outcome.modRevision };
    this.#stale = false;
    return next;
  }

  #changed(problem: string): NereusError {
    return new NereusError(
      ErrorCode.METADATA_INVARIANT_VIOLATION,
      `retention record of stream ${this.owner.streamId} changed under owner session ${this.owner.ownerSessionId}: ${problem}`,
      { retryable: false },
    );
  }
}
