// What the SQLite store's main thread (sqlite-writer-thread.ts) and its writer thread (sqlite-writer-worker.ts)
// say to each other, shared by both sides: the operations, the answer of a round, the messages in each direction,
// the thread's start-up data and the layout of the counters they share. Types and constants only.
import type { SharedDurabilityGate, SharedLatencyHistogramHandle, TxnRequest, WatchEvent } from "@nereus/core";

/**
 * Indexes of the counters shared with the writer thread (an `Int32Array` over a `SharedArrayBuffer`): rounds that
 * carried txns, txns, datasyncs of the `-wal` file, the test seam's verdict ({@link SeamVerdict}) and rounds
 * started (bumped before anything of a round can commit).
 */
export const WriterCounter = { groupCommits: 0, txns: 1, walSyncs: 2, seam: 3, rounds: 4 } as const;

/** Values of counter `seam`: the thread resets it to `pending` before it asks, the main thread stores its verdict. */
export const SeamVerdict = { pending: 0, goOn: 1, failSync: 2 } as const;

/** Words in the shared counters array. */
export const WRITER_COUNTER_WORDS = 5;

/** How long a round waits for the durability gates of its txns before refusing the txns still gated (default). */
export const GATE_TIMEOUT_MS = 30_000;

/**
 * A txn as the writer thread receives it: the request's compares, writes and failure reads, and the shared gate it
 * waits for before the round that applies it (see `TxnRequest.after`).
 */
export interface WriterTxn extends Omit<TxnRequest, "after"> {
  readonly gate?: SharedDurabilityGate;
}

/** One write operation of the store. */
export type WriterOperation =
  | { readonly kind: "txns"; readonly txns: readonly WriterTxn[] }
  | { readonly kind: "grant"; readonly ttlMs: number }
  | { readonly kind: "keepAlive"; readonly leaseId: string }
  | { readonly kind: "revoke"; readonly leaseId: string }
  | { readonly kind: "expire" };

/** An operation as sent: with its id (answers name it) and the store's clock when it was submitted (lease expiry). */
export type SubmittedOperation = WriterOperation & { readonly id: number; readonly now: number };

/** A failure as the writer thread describes it (errors do not cross threads with their class). */
export type WriterFailure =
  | { readonly kind: "error"; readonly message: string; readonly code?: string; readonly name?: string }
  | { readonly kind: "lease-not-found"; readonly leaseId: string }
  | { readonly kind: "invariant"; readonly message: string }
  | { readonly kind: "lost"; readonly message: string }
  /** The txn's durability gate failed or timed out: it was not applied. */
  | { readonly kind: "gate"; readonly message: string };

/** What one operation (or one txn of a txns operation) came to inside its savepoint. */
export type WriterOutcome =
  | { readonly value: unknown; readonly error?: undefined }
  | { readonly error: WriterFailure; readonly value?: undefined };

/** The answer of one round, for the operations `ids` in order. */
export interface RoundReply {
  readonly ids: readonly number[];
  readonly outcomes?: readonly WriterOutcome[];
  readonly events?: readonly WatchEvent[];
  /** BEGIN or COMMIT failed: nothing of the round applied, unless `bodyDone` (then COMMIT failed: unknown). */
  readonly commitError?: WriterFailure;
  readonly bodyDone?: boolean;
  /** The round committed but its datasync failed. */
  readonly syncError?: WriterFailure;
  /** The thread refused the operations without applying them (an earlier datasync failed). */
  readonly refused?: WriterFailure;
}

/** A message from the main thread to the writer thread. */
export type WriterRequest =
  /** Operations to apply, in order (those that queue up while a round runs join the next one). */
  | { readonly kind: "operations"; readonly operations: readonly SubmittedOperation[] }
  /** Close the connection once the operations received before this are done, then answer `closed`. */
  | { readonly kind: "close" };

/** A message from the writer thread to the main thread. */
export type WriterReply =
  /** The connection is open: the thread takes operations. */
  | { readonly kind: "ready" }
  | { readonly kind: "round"; readonly round: RoundReply }
  /** Test seam: the thread waits on counter `seam` for the verdict on its next datasync. */
  | { readonly kind: "seam" }
  | { readonly kind: "closed" };

/** The writer thread's `workerData`. */
export interface WriterThreadData {
  /** Database file (its schema must exist). */
  readonly path: string;
  /** Datasync the `-wal` file after every round (durability "fsync"). */
  readonly sync: boolean;
  readonly gateTimeoutMs: number;
  /** Ask the main thread (message `seam`) before each datasync. */
  readonly seam: boolean;
  /** The shared counters ({@link WriterCounter}). */
  readonly counters: SharedArrayBuffer;
  readonly timings: {
    readonly round: SharedLatencyHistogramHandle;
    readonly gateWait: SharedLatencyHistogramHandle;
    readonly walSync: SharedLatencyHistogramHandle;
  };
}
