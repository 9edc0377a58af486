// The hand-off between consecutive append groups of one stream that are in flight at the same time (commit
// pipelining). A group publishes three facts for the group behind it: `planned` — the head as it will be once this
// group commits (end, size, version, session), so the next group can plan and write its WAL while this one is
// still writing or committing; `sent` — the exact head (and its stored bytes) this group's first head CAS writes,
// sent already; and `committed` — the exact head (with revision) this group's CAS wrote. Behind a store that
// applies txns in submission order (`MetadataStoreAccelerations.orderedTxns`) the next group sends its head CAS once `sent`
// resolves, compared on those bytes (a speculative CAS: it applies only if this one did); when that compare fails,
// or on other stores, it waits for `committed` and compares the revision.
import type { AppendSession, StreamHead } from "../domain/stream-head.js";
import type { VersionedHead } from "../records/stream-keyspace.js";

/** The head a group will leave behind if it commits, and the session this process will then hold. */
export interface ProjectedHead {
  /**
   * `committedEndOffset`, `cumulativeSize`, `commitVersion` and `session` are exact if the group commits;
   * `lastCommitId` is not (the group's commit id is known only after its WAL write) — never plan with it.
   */
  readonly head: StreamHead;
  readonly heldSession: AppendSession | undefined;
}

/** The first head CAS a group sent: the head it writes, and the bytes it stores for it. */
export interface SentHead {
  readonly head: StreamHead;
  readonly value: Uint8Array;
}

/**
 * Invariants: each promise resolves exactly once and never rejects; `planned` resolves before `sent`, `sent`
 * before `committed` (`sent` with a head only after the CAS writing it was handed to the metadata store);
 * `committed` resolves with a head only after this group's head CAS succeeded with a known revision, and with
 * `undefined` for every other end (failure, suspension, committed without a known revision).
 */
export class PipelineLink {
  readonly planned: Promise<ProjectedHead | undefined>;
  readonly sent: Promise<SentHead | undefined>;
  readonly committed: Promise<VersionedHead | undefined>;
  /** Resolves once the group's runner returned (every member settled or handed back to the lane). */
  done: Promise<void> = Promise.resolve();
  #resolvePlanned: (value: ProjectedHead | undefined) => void = () => undefined;
  #resolveSent: (value: SentHead | undefined) => void = () => undefined;
  #resolveCommitted: (value: VersionedHead | undefined) => void = () => undefined;
  #committedKnown = false;
  #commitFailed = false;

  constructor() {
    this.planned = new Promise((resolve) => {
      this.#resolvePlanned = resolve;
    });
    this.sent = new Promise((resolve) => {
      this.#resolveSent = resolve;
    });
    this.committed = new Promise((resolve) => {
      this.#resolveCommitted = resolve;
    });
  }

  /** True once the group is known not to have committed with a usable head (successors must not commit). */
  get failed(): boolean {
    return this.#commitFailed;
  }

  plan(projected: ProjectedHead): void {
    this.#resolvePlanned(projected);
  }

  /** The group's first head CAS is with the metadata store (call right after handing it over; later calls: no-op). */
  send(sent: SentHead): void {
    this.#resolvePlanned(undefined);
    this.#resolveSent(sent);
  }

  commit(head: VersionedHead | undefined): void {
    this.#resolvePlanned(undefined);
    this.#resolveSent(undefined);
    if (this.#committedKnown) return;
    this.#committedKnown = true;
    if (head === undefined) this.#commitFailed = true;
    this.#resolveCommitted(head);
  }

  /** Ends the link without a usable head (idempotent; a no-op after `commit`). */
  fail(): void {
    this.commit(undefined);
  }
}
