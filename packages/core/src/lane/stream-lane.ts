// The in-process, per-stream FIFO (seed step 3): serializes appends (merged into group commits), lifecycle calls
// and session changes of one stream, caches the head and its revision so a warm append costs one metadata round
// trip, and holds the session this process acquired. While an attempt is unresolved (its head request may have
// committed) the lane is suspended: nothing behind it runs, no offset is ever guessed. The lane is not a
// cross-process lock; the append session and the head CAS are the fence.
import type { AppendAttempt } from "../append/append-attempt.js";
import { appendFailure } from "../append/append-failure.js";
import type { AppendSession } from "../domain/stream-head.js";
import type { NereusError } from "../errors/nereus-error.js";
import type { VersionedHead } from "../stream-store/stream-keyspace.js";
import type { LaneTask } from "./lane-operation.js";
import type { PendingAppend } from "./pending-append.js";
import { takeAppendGroup, type GroupLimits } from "./take-append-group.js";

/** Runs one group of appends taken from the lane. Must settle every member and never throw. */
export type GroupRunner = (lane: StreamLane, members: readonly PendingAppend[]) => Promise<void>;

type LaneItem = PendingAppend | LaneTask;

/**
 * Invariants: items start in FIFO order, one at a time; while `suspendedBy` is set nothing starts; an item whose
 * deadline passes while queued is removed and fails (appends: KNOWN_NOT_COMMITTED).
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
  #suspendedBy: AppendAttempt | undefined;
  #pump: Promise<void> | undefined;

  constructor(streamId: string, runGroup: GroupRunner, groupLimits: GroupLimits | undefined) {
    this.streamId = streamId;
    this.#runGroup = runGroup;
    this.#groupLimits = groupLimits;
  }

  /** The unresolved attempt that blocks this lane, if any. */
  get suspendedBy(): AppendAttempt | undefined {
    return this.#suspendedBy;
  }

  /** Items waiting to start. */
  get queued(): number {
    return this.#queue.length;
  }

  /** True when nothing is queued or running. */
  get idle(): boolean {
    return this.#queue.length === 0 && this.#pump === undefined;
  }

  enqueue(item: LaneItem): void {
    this.#queue.push(item);
    item.deadline.signal.addEventListener("abort", () => this.#expire(item), { once: true });
    if (item.deadline.aborted) this.#expire(item);
    this.#kick();
  }

  invalidateHead(): void {
    this.cachedHead = undefined;
  }

  /** Blocks the lane on an attempt whose outcome is unknown. */
  suspend(attempt: AppendAttempt): void {
    this.#suspendedBy = attempt;
    this.cachedHead = undefined;
  }

  /** Unblocks the lane once `attempt` is resolved (no-op for any other attempt). */
  resume(attempt: AppendAttempt): void {
    if (this.#suspendedBy !== attempt) return;
    this.#suspendedBy = undefined;
    this.cachedHead = undefined;
    this.#kick();
  }

  /** Fails every queued item (store closing). Running items finish on their own deadlines. */
  failQueued(error: NereusError): void {
    for (const item of this.#queue.splice(0)) failItem(item, error);
  }

  /** Resolves when the currently running item (if any) has finished. */
  async settled(): Promise<void> {
    while (this.#pump !== undefined) await this.#pump;
  }

  #expire(item: LaneItem): void {
    const index = this.#queue.indexOf(item);
    if (index < 0 || item.state !== "queued") return;
    this.#queue.splice(index, 1);
    failItem(item, item.deadline.error(`${item.kind} on ${this.streamId} waited in the lane`));
  }

  #kick(): void {
    if (this.#pump !== undefined || this.#suspendedBy !== undefined || this.#queue.length === 0) return;
    this.#pump = this.#drain().finally(() => {
      this.#pump = undefined;
      this.#kick();
    });
  }

  async #drain(): Promise<void> {
    while (this.#suspendedBy === undefined) {
      const first = this.#queue[0];
      if (first === undefined) return;
      if (first.kind === "operation") {
        this.#queue.shift();
        await first.execute();
        continue;
      }
      const group = takeAppendGroup(this.#queue, this.#groupLimits);
      for (const member of group) member.state = "running";
      await this.#runGroup(this, group);
    }
  }
}

function failItem(item: LaneItem, error: NereusError): void {
  if (item.kind === "append") item.reject(appendFailure(error, "KNOWN_NOT_COMMITTED"));
  else item.reject(error);
}
