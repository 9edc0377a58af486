// The appends of one partition that are in flight, oldest first, and the projection they imply: the log end and
// the producer state as they will be once every in-flight group has committed. New groups are planned against the
// projection; the committed state (high watermark, producer table) is changed only by the partition log, when a
// group's append succeeded and every group ahead of it has been applied. After a failure the pipeline is broken:
// nothing new is planned until every in-flight group has settled, and the projection is the committed state
// again. No I/O and no outcomes here: the partition log issues the appends and answers the tickets.
import type { ProducerEntry } from "../producers/producer-state.js";
import type { ProduceTicket } from "./produce-ticket.js";

/** The committed view a pipeline projects from (the partition log's loaded state). */
export interface CommittedLog {
  readonly topicId: string;
  readonly highWatermark: number;
  readonly producers: ReadonlyMap<bigint, ProducerEntry>;
}

/** One batch appended by a group, at `baseOffset`. */
export interface GroupMember {
  readonly ticket: ProduceTicket;
  readonly baseOffset: number;
  readonly timeoutMs: number;
}

/** A retry of a batch appended by a group: answered with its original's outcome. */
export interface GroupDependent {
  readonly ticket: ProduceTicket;
  readonly original: GroupMember;
}

/** One stored entry of a group (the batch with its base offset assigned). */
export interface GroupEntry {
  readonly payload: Uint8Array;
  readonly recordCount: number;
  /** `crc32c(payload)`, derived from the batch's own CRC field (`storedBatchCrc32c`). */
  readonly payloadCrc32c: number;
}

/** One append: batches with consecutive offsets from `expectedStart` to `end`, one entry per batch. */
export interface InFlightGroup<State extends CommittedLog> {
  /** The committed state the group was planned against. */
  readonly state: State;
  readonly expectedStart: number;
  readonly end: number;
  /** Same order and length as `members`. */
  readonly entries: readonly GroupEntry[];
  readonly members: readonly GroupMember[];
  /** Grows while the group is in flight, when later plans find retries of its members. */
  readonly dependents: GroupDependent[];
  /** Producer entries as they are once this group (and every group ahead of it) has committed. */
  readonly overlay: ReadonlyMap<bigint, ProducerEntry>;
  readonly logAppendTimeMs: number | undefined;
}

/** The in-flight groups of one partition, oldest first. */
export class AppendPipeline<State extends CommittedLog> {
  readonly #groups: Array<InFlightGroup<State>> = [];
  #broken = false;

  /** Groups in flight (appended, outcome not handled yet). */
  get size(): number {
    return this.#groups.length;
  }

  /** True from a failed group until every group in flight has settled. */
  get broken(): boolean {
    return this.#broken;
  }

  /**
   * Whether a group of `topicId` may be planned on `state` now: always when nothing is in flight; otherwise only
   * on the same state and topic as the groups in flight, below `limit`, and not after a failure.
   */
  accepts(state: State | undefined, topicId: string, limit: number): boolean {
    const newest = this.#groups[this.#groups.length - 1];
    if (newest === undefined) return true;
    return !this.#broken && this.#groups.length < limit && state === newest.state && topicId === state.topicId;
  }

  /** The offset the next group starts at. */
  projectedEnd(state: State): number {
    return this.#groups[this.#groups.length - 1]?.end ?? state.highWatermark;
  }

  /** The producer entry as it is once every group in flight has committed. */
  projectedProducer(state: State, producerId: bigint): ProducerEntry | undefined {
    for (let index = this.#groups.length - 1; index >= 0; index -= 1) {
      const entry = this.#groups[index]?.overlay.get(producerId);
      if (entry !== undefined) return entry;
    }
    return state.producers.get(producerId);
  }

  /** The in-flight group and member that append the batch at `baseOffset`, if any. */
  memberAt(baseOffset: number): { readonly group: InFlightGroup<State>; readonly member: GroupMember } | undefined {
    for (const group of this.#groups) {
      if (baseOffset < group.expectedStart || baseOffset >= group.end) continue;
      const member = group.members.find((candidate) => candidate.baseOffset === baseOffset);
      return member === undefined ? undefined : { group, member };
    }
    return undefined;
  }

  /** Adds a planned group (its append is about to be issued). */
  add(group: InFlightGroup<State>): void {
    this.#groups.push(group);
  }

  /** Marks the pipeline failed: no group is accepted until the ones in flight have settled. */
  fail(): void {
    this.#broken = true;
  }

  /** Removes the oldest group once its outcome has been handled; an empty pipeline is whole again. */
  settle(group: InFlightGroup<State>): void {
    if (this.#groups[0] !== group) throw new Error("append groups settle in order");
    this.#groups.shift();
    if (this.#groups.length === 0) this.#broken = false;
  }
}
