// The handle of one open cursor: read accessors over the latest known version, the process-local dispatch
// position, and the durable mutations, all serialized through the cursor's FIFO lane (acks group-committed).
// A mutation resolves only after the CAS that made it durable (or once it found its change already durable).
// Once a write finds another owner session, every later mutation fails CURSOR_FENCED.
import { ErrorCode, NereusError } from "@nereus/core";
import { backlog, firstUnacked, isBatchIndexAcked, isWholeAcked, nextUnacked } from "../ack-state/ack-queries.js";
import { classifyBatchBits } from "../ack-state/batch-bits.js";
import { checkOffset } from "../ack-state/check-offset.js";
import type { IndividualAck } from "../ack-state/individual-acks.js";
import type { SkipOptions } from "../ack-state/skip-entries.js";
import type { CursorLifecycle } from "../domain/cursor-records.js";
import { CommittedEnd } from "../store/committed-end.js";
import type { OwnerContext } from "../store/owner-context.js";
import { type AckMember, type MutationResult, commitAckGroup } from "./ack-group-commit.js";
import { type AckRequest, ackWeight, checkAckRequest } from "./ack-request.js";
import { CursorCounters } from "./cursor-counters.js";
import { CursorLane } from "./cursor-lane.js";
import { forwardResetStep, replacePropertiesStep, skipStep } from "./exclusive-steps.js";
import { hydrateCursor } from "./hydrate-cursor.js";
import type { HydratedCursor } from "./hydrated-cursor.js";
import { OperationDeadline } from "./operation-deadline.js";
import type {
  CumulativeAckOptions,
  CursorHandleOptions,
  MutationOptions,
  ResetOptions,
  SkipCallOptions,
} from "./mutation-options.js";
import { checkUserCursorProperties } from "./property-maps.js";
import { type CasHost, type CasStep, runRootCas } from "./run-root-cas.js";

/**
 * One open cursor. Invariants: mutations take effect in submission order; acks queued behind a CAS in flight are
 * committed together in one CAS (at most `limits.maxAcksPerCas` acks); a mutation resolves only after its CAS
 * committed; an ack is never applied across an ack-state epoch change (a reset or clear erased what it acked);
 * `readPosition` is never persisted and never below `firstUnacked()`.
 */
export class CursorHandle {
  readonly owner: OwnerContext;
  readonly cursorNameHash: string;
  readonly counters: CursorCounters;
  readonly #committedEnd: CommittedEnd;
  readonly #lane: CursorLane<AckMember, MutationResult>;
  readonly #host: CasHost;
  #state: HydratedCursor;
  #stale = false;
  #fenced: NereusError | undefined;
  #closed = false;
  #readPosition: number;

  constructor(owner: OwnerContext, hydrated: HydratedCursor, options: CursorHandleOptions = {}) {
    this.owner = owner;
    this.cursorNameHash = hydrated.root.cursorNameHash;
    this.counters = options.counters ?? new CursorCounters();
    this.#committedEnd = options.committedEnd ?? new CommittedEnd(owner.env.streams, owner.streamId);
    this.#state = hydrated;
    this.#readPosition = firstUnacked(hydrated.view);
    this.#host = {
      owner,
      cursorNameHash: this.cursorNameHash,
      counters: this.counters,
      newSnapshotId: options.newSnapshotId,
      adopt: (state) => this.#adopt(state),
      markStale: () => {
        this.#stale = true;
      },
    };
    this.#lane = new CursorLane(
      (members) => this.#guarded(() => commitAckGroup(this.#host, this.#start(), members, this.#committedEnd)),
      owner.env.limits.maxAcksPerCas,
    );
  }

  // ---- read accessors (the latest known version; no I/O) ----

  /** The latest version this handle knows. */
  get state(): HydratedCursor {
    return this.#state;
  }

  get name(): string {
    return this.#state.root.cursorName;
  }

  get generation(): number {
    return this.#state.root.cursorGeneration;
  }

  get lifecycle(): CursorLifecycle {
    return this.#state.root.lifecycle;
  }

  /** First entry not cumulatively acknowledged. */
  get markDeleteOffset(): number {
    return this.#state.root.markDeleteOffset;
  }

  get ackStateEpoch(): number {
    return this.#state.root.ackStateEpoch;
  }

  get positionProperties(): ReadonlyMap<string, bigint> {
    return this.#state.root.positionProperties;
  }

  get cursorProperties(): ReadonlyMap<string, string> {
    return this.#state.root.cursorProperties;
  }

  /** First entry not acknowledged as a whole. */
  firstUnacked(): number {
    return firstUnacked(this.#state.view);
  }

  /** First entry at or above `from` not acknowledged as a whole (for dispatch). */
  nextUnacked(from: number): number {
    return nextUnacked(this.#state.view, from);
  }

  /** Entries in [markDelete, committedEnd) not acknowledged as a whole (a partial entry counts as one). */
  backlog(committedEnd: number): number {
    checkOffset(committedEnd, "committed end");
    return backlog(this.#state.view, committedEnd);
  }

  /** True when entry `offset` (or, with `batchIndex`, that index of it) is acknowledged. */
  isAcked(offset: number, batchIndex?: number): boolean {
    checkOffset(offset, "offset");
    const view = this.#state.view;
    return batchIndex === undefined ? isWholeAcked(view, offset) : isBatchIndexAcked(view, offset, batchIndex);
  }

  // ---- process-local dispatch position ----

  /** Next entry to dispatch: process-local, never persisted; starts at `firstUnacked()` and never falls below it. */
  get readPosition(): number {
    return this.#readPosition;
  }

  /** Moves the dispatch position to `offset`, clamped to `firstUnacked()`; returns the new position. */
  seekLocal(offset: number): number {
    checkOffset(offset, "read position");
    this.#readPosition = Math.max(offset, this.firstUnacked());
    return this.#readPosition;
  }

  // ---- durable mutations ----

  /** Acknowledges every entry through `offset` (or, with `partial`, below it plus those batch indexes of it). */
  cumulativeAck(offset: number, options: CumulativeAckOptions = {}): Promise<MutationResult> {
    return this.#submitAck(
      { kind: "cumulative", offset, batch: options.partial, positionProperties: options.positionProperties },
      options,
    );
  }

  /**
   * Acknowledges each item (whole entry, or with `batch` some of its batch indexes), all or nothing. At most
   * `limits.maxAcksPerRequest` items; checked before any I/O.
   */
  individualAck(items: readonly IndividualAck[], options: MutationOptions = {}): Promise<MutationResult> {
    return this.#submitAck({ kind: "individual", items }, options);
  }

  /** Cumulatively acknowledges through the `count`th eligible entry (never beyond `committedEnd`). */
  skip(count: number, options: SkipCallOptions): Promise<MutationResult> {
    const skipOptions: SkipOptions = {
      committedEnd: options.committedEnd,
      countIndividuallyAcked: options.countIndividuallyAcked ?? false,
    };
    return this.#submitExclusive(
      "cursor skip",
      options,
      () => {
        checkOffset(count, "skip count");
        checkOffset(skipOptions.committedEnd, "committed end");
      },
      (generation) => skipStep(generation, count, skipOptions),
    );
  }

  /**
   * Resets the cursor forward to `target` (at or above markDelete): ranges, snapshot and position properties
   * cleared, cursor properties kept, epoch + 1. A backward reset goes through the stream's protected reset.
   */
  resetForward(target: number, options: ResetOptions = {}): Promise<MutationResult> {
    const partial = options.partial;
    return this.#submitExclusive(
      "cursor reset",
      options,
      () => {
        checkOffset(target, "reset target");
        if (partial !== undefined) classifyBatchBits(partial);
      },
      (generation) => forwardResetStep("cursor reset", generation, () => target, partial),
    );
  }

  /** Acknowledges everything below `committedEnd` as a reset does (epoch + 1; later appends stay backlog). */
  clearBacklog(committedEnd: number, options: MutationOptions = {}): Promise<MutationResult> {
    return this.#submitExclusive(
      "cursor clear backlog",
      options,
      () => checkOffset(committedEnd, "committed end"),
      (generation) =>
        forwardResetStep(
          "cursor clear backlog",
          generation,
          (state) => Math.max(committedEnd, state.view.markDeleteOffset),
          undefined,
        ),
    );
  }

  /**
   * Replaces the cursor properties (keys starting `#nereus.` are internal: kept, and refused in `properties`).
   * Fails CURSOR_STATE_CONFLICT when another writer changed the root first, unless it already holds the result.
   */
  replaceProperties(properties: ReadonlyMap<string, string>, options: MutationOptions = {}): Promise<MutationResult> {
    return this.#submitExclusive(
      "cursor property replacement",
      options,
      () => checkUserCursorProperties(properties),
      (generation) => replacePropertiesStep(generation, new Map(properties)),
    );
  }

  /** Reads the cursor again (in the lane, after every mutation submitted before). */
  reload(options: MutationOptions = {}): Promise<HydratedCursor> {
    if (this.#closed) return Promise.reject(this.#closedError());
    return this.#lane.submitExclusive(() => this.#reload(options.signal));
  }

  /**
   * Runs `transition` alone in the lane with the latest version (reloaded first when unknown) and adopts the
   * version it returns. For the stream layer's protected transitions (backward reset, delete). A throw leaves the
   * version unknown: the next operation reloads first.
   */
  runExclusive(transition: (current: HydratedCursor) => Promise<HydratedCursor>): Promise<HydratedCursor> {
    return this.#lane.submitExclusive(() =>
      this.#guarded(async () => {
        const current = this.#stale ? await this.#reload(undefined) : this.#state;
        this.#stale = true;
        const next = await transition(current);
        this.#adopt(next);
        return next;
      }),
    );
  }

  /** Refuses new mutations and resolves once every queued one ended. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#lane.whenIdle();
  }

  // ---- internals ----

  #submitAck(request: AckRequest, options: MutationOptions): Promise<MutationResult> {
    try {
      this.#checkOpen();
      checkAckRequest(request, this.owner.env.limits.maxAcksPerRequest);
    } catch (error) {
      return Promise.reject(error);
    }
    const member: AckMember = {
      request,
      generation: this.#state.root.cursorGeneration,
      epoch: this.#state.root.ackStateEpoch,
      deadline: OperationDeadline.start(this.owner.env.limits.operationTimeoutMs, options.signal),
    };
    return this.#lane.submitBatchable(member, ackWeight(request));
  }

  #submitExclusive(
    what: string,
    options: MutationOptions,
    check: () => void,
    stepFor: (generation: number) => CasStep<MutationResult>,
  ): Promise<MutationResult> {
    try {
      this.#checkOpen();
      check();
    } catch (error) {
      return Promise.reject(error);
    }
    const deadline = OperationDeadline.start(this.owner.env.limits.operationTimeoutMs, options.signal);
    const generation = this.#state.root.cursorGeneration;
    return this.#lane.submitExclusive(() =>
      this.#guarded(() => runRootCas(this.#host, this.#start(), deadline, what, stepFor(generation))),
    );
  }

  /** The version to decide from: the latest known one, or undefined when it must be reloaded first. */
  #start(): HydratedCursor | undefined {
    return this.#stale ? undefined : this.#state;
  }

  /** Runs `work` unless fenced; remembers a CURSOR_FENCED it fails with. */
  async #guarded<T>(work: () => Promise<T>): Promise<T> {
    this.#checkFenced();
    try {
      return await work();
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.CURSOR_FENCED)) this.#fenced = error;
      throw error;
    }
  }

  /** Throws when the handle refuses new work: fenced, or closed. */
  #checkOpen(): void {
    this.#checkFenced();
    if (this.#closed) throw this.#closedError();
  }

  #closedError(): NereusError {
    return new NereusError(ErrorCode.STORAGE_CLOSED, `cursor ${this.name} is closed`, { retryable: false });
  }

  #checkFenced(): void {
    if (this.#fenced !== undefined) {
      throw new NereusError(ErrorCode.CURSOR_FENCED, this.#fenced.message, { retryable: false, cause: this.#fenced });
    }
  }

  async #reload(signal: AbortSignal | undefined): Promise<HydratedCursor> {
    const { root, base } = this.#state;
    const knownBases = root.snapshot === undefined ? [] : [{ reference: root.snapshot, base }];
    const latest = await hydrateCursor(this.owner, this.cursorNameHash, { signal, knownBases });
    this.#adopt(latest);
    return latest;
  }

  /** Takes `next` as the latest known version (a written or freshly read one). */
  #adopt(next: HydratedCursor): void {
    const previous = this.#state.root;
    this.#state = next;
    this.#stale = false;
    const first = firstUnacked(next.view);
    const replaced =
      next.root.cursorGeneration !== previous.cursorGeneration || next.root.ackStateEpoch !== previous.ackStateEpoch;
    this.#readPosition = replaced ? first : Math.max(this.#readPosition, first);
  }
}
