// The in-process, per-stream FIFO (docs/architecture.md §4.2): orders appends (merged into group commits), lifecycle calls
// and session changes of one stream, caches the head and its revision so a warm append costs one metadata round
// trip, and holds the session this process acquired. Up to `pipelineDepth` append groups run at once: a group
// behind a running one plans against that one's projected head and writes its WAL meanwhile, but sends its head
// CAS only after the one ahead committed (see PipelineLink), so commits stay strictly ordered. A group whose
// predecessor did not commit hands its members back (nothing of theirs committed) and they run again, in order,
// once the groups ahead have settled. While an attempt is unresolved (its head request may have committed) the
// lane is suspended: nothing new starts, no offset is ever guessed. Operations wait for every running group. The
// lane is not a cross-process lock; the append session and the head CAS are the fence.
import type { AppendAttempt } from "./append-attempt.js";
import { appendFailure } from "../errors/append-failure.js";
import type { AppendSession } from "../domain/stream-head.js";
import type { NereusError } from "../errors/nereus-error.js";
import type { VersionedHead } from "../records/stream-keyspace.js";
import type { LaneTask } from "./lane-operation.js";
import type { PendingAppend } from "./pending-append.js";
import { PipelineLink } from "./pipeline-link.js";
import { takeAppendGroup, type GroupLimits } from "./take-append-group.js";

/**
 * Runs one group of appends taken from the lane. Must settle every member or hand it back with
 * `lane.requeue`, must end `link` (plan/commit/fail), must never throw, and must not send its head request before
 * `predecessor.committed` resolved with a head.
 */
export type GroupRunner = (
  lane: StreamLane,
  members: readonly PendingAppend[],
  link: PipelineLink,
  predecessor: PipelineLink | undefined,
) => Promise<void>;

type LaneItem = PendingAppend | LaneTask;

/**
 * Invariants: items start in FIFO order (handed-back appends before everything queued after them); at most
 * `pipelineDepth` groups run at once and only appends overlap — an operation runs alone; while `suspendedBy` is
 * set nothing new starts; an item whose deadline passes while queued is removed and fails (appends:
 * KNOWN_NOT_COMMITTED).
 */
export class StreamLane {
  readonly streamId: string;
  /** Last head this process read or wrote, with its revision; undefined when it must be reloaded. */
  cachedHead: VersionedHead | undefined;
  /** The session this process acquired on the stream (its token lives only here and in the head). */
  heldSession: AppendSession | undefined;
  readonly #queue: LaneItem[] = [];
  readonly #runGroup: GroupRunner;
  readonly #groupLimits: GroupLimits | undefined;
  readonly #pipelineDepth: number;
  /** Groups running, oldest first. */
  readonly #inFlight: PipelineLink[] = [];
  /** Appends handed back by groups whose predecessor did not commit, in order; re-queued once nothing runs. */
  readonly #handedBack: PendingAppend[] = [];
  /** Unresolved attempts, oldest first (several when pipelined head CASes were lost together). */
  readonly #suspended: AppendAttempt[] = [];
  #pump: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(streamId: string, runGroup: GroupRunner, groupLimits: GroupLimits | undefined, pipelineDepth = 1) {
    if (!Number.isSafeInteger(pipelineDepth) || pipelineDepth < 1)
      throw new RangeError(`pipelineDepth must be a positive integer, got ${String(pipelineDepth)}`);
    this.streamId = streamId;
    this.#runGroup = runGroup;
    this.#groupLimits = groupLimits;
    this.#pipelineDepth = pipelineDepth;
  }

  /** The oldest unresolved attempt that blocks this lane, if any. */
  get suspendedBy(): AppendAttempt | undefined {
    return this.#suspended[0];
  }

  /** Items waiting to start. */
  get queued(): number {
    return this.#queue.length + this.#handedBack.length;
  }

  /** Append groups running now. */
  get running(): number {
    return this.#inFlight.length;
  }

  /** True when nothing is queued or running. */
  get idle(): boolean {
    return this.queued === 0 && this.#pump === undefined;
  }

  enqueue(item: LaneItem): void {
    this.#queue.push(item);
    this.#watchDeadline(item);
    this.#kick();
    this.#wake?.();
  }

  /**
   * Gives appends of a group that will not commit back to the lane (called by a runner whose predecessor did not
   * commit, before its link ends). They run again, in this order, ahead of everything queued after them.
   */
  requeue(members: readonly PendingAppend[]): void {
    for (const member of members) {
      if (member.state === "settled") continue;
      member.state = "queued";
      member.attemptId = undefined;
      this.#handedBack.push(member);
    }
  }

  invalidateHead(): void {
    this.cachedHead = undefined;
  }

  /** Blocks the lane on an attempt whose outcome is unknown (until every such attempt is resolved). */
  suspend(attempt: AppendAttempt): void {
    if (!this.#suspended.includes(attempt)) this.#suspended.push(attempt);
    this.cachedHead = undefined;
  }

  /** Unblocks the lane once `attempt` and every other suspending attempt are resolved (no-op for other attempts). */
  resume(attempt: AppendAttempt): void {
    const index = this.#suspended.indexOf(attempt);
    if (index < 0) return;
    this.#suspended.splice(index, 1);
    this.cachedHead = undefined;
    if (this.#suspended.length > 0) return;
    this.#kick();
    this.#wake?.();
  }

  /** Fails every queued item (store closing). Running items finish on their own deadlines. */
  failQueued(error: NereusError): void {
    for (const item of this.#handedBack.splice(0)) failItem(item, error);
    for (const item of this.#queue.splice(0)) failItem(item, error);
  }

  /** Resolves when the currently running items (if any) have finished. */
  async settled(): Promise<void> {
    while (this.#pump !== undefined) await this.#pump;
  }

  #watchDeadline(item: LaneItem): void {
    item.deadline.signal.addEventListener("abort", () => this.#expire(item), { once: true });
    if (item.deadline.aborted) this.#expire(item);
  }

  #expire(item: LaneItem): void {
    const index = this.#queue.indexOf(item);
    if (index < 0 || item.state !== "queued") return;
    this.#queue.splice(index, 1);
    failItem(item, item.deadline.error(`${item.kind} on ${this.streamId} waited in the lane`));
  }

  #kick(): void {
    if (this.#pump !== undefined || this.#suspended.length > 0 || this.queued === 0) return;
    this.#pump = this.#drain().finally(() => {
      this.#pump = undefined;
      this.#kick();
    });
  }

  /** Waits until a running group finishes or (when `onEnqueue`) something is enqueued or the lane resumes. */
  async #waitForChange(onEnqueue: boolean): Promise<void> {
    const waits: Array<Promise<void>> = this.#inFlight.map((link) => link.done);
    if (onEnqueue) waits.push(new Promise<void>((resolve) => (this.#wake = resolve)));
    if (waits.length === 0) return;
    await Promise.race(waits);
    this.#wake = undefined;
  }

  /** Moves handed-back appends to the front of the queue (only once no group runs, so order is kept). */
  #restoreHandedBack(): void {
    if (this.#inFlight.length > 0 || this.#handedBack.length === 0) return;
    const items = this.#handedBack.splice(0);
    this.#queue.unshift(...items);
    for (const item of items) this.#watchDeadline(item);
  }

  async #drain(): Promise<void> {
    for (;;) {
      this.#restoreHandedBack();
      const first = this.#queue[0];
      if (this.#suspended.length > 0 || first === undefined || this.#handedBack.length > 0) {
        // Nothing can start now: finish when nothing runs, else wait for a group to end or new work.
        if (this.#inFlight.length === 0) return;
        await this.#waitForChange(this.#suspended.length === 0 && this.#handedBack.length === 0);
        continue;
      }
      if (first.kind === "operation") {
        if (this.#inFlight.length > 0) {
          await this.#waitForChange(false);
          continue;
        }
        this.#queue.shift();
        await first.execute();
        continue;
      }
      const predecessor = this.#inFlight.at(-1);
      let projectedStart: number | undefined;
      if (predecessor !== undefined) {
        if (this.#inFlight.length >= this.#pipelineDepth || predecessor.failed) {
          await this.#waitForChange(false);
          continue;
        }
        const projected = await Promise.race([predecessor.planned, predecessor.done.then(() => undefined)]);
        if (projected === undefined || predecessor.failed || this.#suspended.length > 0 || this.#queue[0] !== first) {
          if (projected === undefined) await this.#waitForChange(false);
          continue;
        }
        if (!startsAt(first, projected.head.committedEndOffset)) {
          // An explicit expectation that differs from the projection is judged against a committed head only.
          await this.#waitForChange(false);
          continue;
        }
        projectedStart = projected.head.committedEndOffset;
      }
      const group = takeAppendGroup(this.#queue, this.#groupLimits, projectedStart);
      for (const member of group) member.state = "running";
      const link = new PipelineLink();
      this.#inFlight.push(link);
      link.done = this.#runGroup(this, group, link, predecessor).finally(() => {
        link.fail();
        this.#inFlight.splice(this.#inFlight.indexOf(link), 1);
      });
      // The next group plans against this one's projection: wait until it exists (or the group ended).
      await Promise.race([link.planned, link.done]);
    }
  }
}

/** True when `first` may be planned at `position` (no explicit expectation, or exactly that one). */
function startsAt(first: PendingAppend, position: number): boolean {
  return first.expectedStartOffset === undefined || first.expectedStartOffset === position;
}

function failItem(item: LaneItem, error: NereusError): void {
  if (item.kind === "append") item.reject(appendFailure(error, "KNOWN_NOT_COMMITTED"));
  else item.reject(error);
}
