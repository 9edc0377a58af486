// The stream head: one record per stream and the only append/session/trim/lifecycle linearization key.
import type { StorageProfile } from "./storage-profile.js";

export type StreamState = "ACTIVE" | "SEALED" | "DELETING" | "DELETED";

/**
 * The append session embedded in the head so that one CAS fences writers. Only the hash of the fencing token is
 * ever persisted outside the head (in commit intents).
 */
export interface AppendSession {
  readonly writerId: string;
  /** Monotone per stream; a new owner takes a higher epoch. */
  readonly epoch: number;
  /** Random per epoch; compared inside the commit CAS together with `epoch`. */
  readonly fencingToken: string;
  /** Incremented by same-writer renewals; deliberately not part of the commit condition. */
  readonly leaseVersion: number;
  readonly expiresAtMillis: number;
}

/**
 * Invariants: `0 <= trimOffset <= committedEndOffset`; `committedEndOffset`, `cumulativeSize`, `commitVersion`,
 * `trimOffset` never decrease; `lastCommitId === ""` iff end = size = version = 0; `profile` never changes.
 */
export interface StreamHead {
  readonly streamId: string;
  readonly streamName: string;
  readonly state: StreamState;
  readonly profile: StorageProfile;
  /** Immutable user attributes (sorted keys when encoded). */
  readonly attributes: Readonly<Record<string, string>>;
  readonly createdAtMillis: number;
  readonly committedEndOffset: number;
  readonly cumulativeSize: number;
  readonly commitVersion: number;
  readonly trimOffset: number;
  readonly lastCommitId: string;
  readonly session: AppendSession | undefined;
}
