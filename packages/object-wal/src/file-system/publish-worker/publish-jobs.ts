// The jobs the filesystem store gives its publish workers and what each comes to: publishing an object file,
// reading one, appending records to a segment file. Shared by the pool (file-publish-worker.ts) and the worker
// thread (publish-worker-thread.ts); types and constants only.

/** What the filesystem store asks a worker to publish. Paths are absolute. */
export interface PublishJob {
  readonly temporary: string;
  readonly target: string;
  readonly header: Uint8Array;
  readonly body: Uint8Array;
  /**
   * Instead of header + body: the first `length` bytes of a shared buffer (header included) that the pool registers
   * with a worker once and names by `id` afterwards (see ../shared-body-pool.ts).
   */
  readonly memory?: { readonly id: number; readonly buffer: SharedArrayBuffer; readonly length: number };
  /** false: skip both fsyncs (the object survives a process crash, not an OS crash or power loss). */
  readonly fsync: boolean;
}

/**
 * What the filesystem store asks a worker to read: the file's header and `length` bytes at body offset `offset`
 * (the whole body when `length` is undefined).
 */
export interface ReadJob {
  readonly path: string;
  readonly headerBytes: number;
  readonly offset: number;
  readonly length: number | undefined;
}

/**
 * A read's outcome: the header, the body size (file size minus the header) and the bytes read — fewer than asked
 * only when the file is shorter (`bytes.length` tells) — or the failing step's errno.
 */
export type ReadOutcome =
  | { readonly kind: "read"; readonly header: Uint8Array; readonly bodySize: number; readonly bytes: Uint8Array }
  | { readonly kind: "failed"; readonly error: PublishError };

/**
 * Appends records to a segment file at `position` (segment layout, ../segments/segment-log.ts): each record is its head
 * bytes then its body, from `body` or from registered shared memory (`start`..`start + length`). `create` opens the
 * file create-only; `sync` fdatasyncs it after the writes, `syncDirectory` then fsyncs its directory, `close`
 * closes it last. Segment jobs all run on one worker, one at a time, so a file's writes land in order.
 */
export interface SegmentWriteJob {
  readonly path: string;
  readonly create: boolean;
  readonly position: number;
  readonly records: readonly SegmentWriteRecord[];
  readonly sync: boolean;
  readonly syncDirectory: boolean;
  readonly close: boolean;
  /**
   * A shared durability gate (see `SharedDurabilityGate` in @nereus/core) the worker opens up to `sequence` once
   * every write and sync of the job succeeded — before it answers — or fails when the job fails.
   */
  readonly gate?: { readonly words: SharedArrayBuffer; readonly sequence: number };
  /**
   * Sent while the segment job before it was still in flight: the worker refuses it (writing nothing) unless that
   * job succeeded, so no write lands after a failed one.
   */
  readonly follows?: boolean;
}

/**
 * The error code of a `follows` job the worker refused because the job before it failed: nothing of it was written.
 */
export const FOLLOWER_REFUSED_CODE = "EPREVIOUSFAILED";

/** One record of a `SegmentWriteJob`. */
export interface SegmentWriteRecord {
  /** Skip the record (reported in `skipped`) when this file exists: the key is taken by an object file. */
  readonly unlessFile?: string;
  readonly head: Uint8Array;
  readonly body?: Uint8Array;
  readonly memory?: {
    readonly id: number;
    readonly buffer: SharedArrayBuffer;
    readonly start: number;
    readonly length: number;
  };
}

/** A segment write's outcome: every byte written (and synced as asked), or the failing step's errno. */
export type SegmentWriteOutcome =
  /** `skipped`: indexes of records not written because their `unlessFile` exists; the others follow each other. */
  | { readonly kind: "written"; readonly skipped: readonly number[] }
  | { readonly kind: "failed"; readonly error: PublishError };

/** The job's outcome: created (or the key existed), or the failing step's errno. */
export type PublishOutcome =
  | { readonly kind: "published"; readonly created: boolean }
  /** Linked (the object exists) but the directory fsync failed: the publication may not survive a crash. */
  | { readonly kind: "linked-unsynced"; readonly error: PublishError }
  | { readonly kind: "failed"; readonly error: PublishError };

/** A system-call failure carried back from the worker (an Error with its errno `code`). */
export interface PublishError {
  readonly code: string;
  readonly message: string;
}
