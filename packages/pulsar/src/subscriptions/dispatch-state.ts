// The mutable state of one subscription's dispatch: connected consumers, entries handed out and not acknowledged
// (each with exactly one consumer), entries waiting for redelivery, redelivery counts, Key_Shared slot holders and
// hash ranges, and the local read position. The operations here keep those structures consistent with each other;
// deciding what to deliver is the dispatcher's job.
import type { ConsumerState } from "./consumer-state.js";
import { AutoSplitSelector } from "./auto-split-selector.js";
import type { SourceEntry } from "./entry-source.js";
import { type EntryMeta, ReplayQueue } from "./replay-queue.js";
import { SlotOwners } from "./slot-owners.js";
import type { SubscriptionType } from "./subscription-types.js";

/** An entry handed to a consumer and not yet acknowledged. */
export interface Outstanding {
  readonly consumer: ConsumerState;
  readonly meta: EntryMeta;
  /** When ack-timeout redelivery is due (clock milliseconds), if the consumer has an ack timeout. */
  readonly deadline: number | undefined;
}

/**
 * Invariants: an offset is in at most one of `outstanding` and `replay`; `outstanding.get(o).consumer.outstanding`
 * holds `o`; for Key_Shared, `slotOwners` counts exactly the outstanding entries per slot; `buffer` holds entries
 * read ahead from `readPosition`, valid for the current `generation` only.
 */
export class DispatchState {
  type: SubscriptionType | undefined = undefined;
  /** Connected consumers in join order. */
  readonly consumers = new Map<bigint, ConsumerState>();
  /** Exclusive and Failover: the consumer entries go to. */
  active: ConsumerState | undefined = undefined;
  readonly outstanding = new Map<number, Outstanding>();
  readonly replay = new ReplayQueue();
  /** Shared and Key_Shared: times each entry was redelivered (absent: never). */
  readonly redeliveryCounts = new Map<number, number>();
  readonly slotOwners = new SlotOwners();
  readonly selector = new AutoSplitSelector();
  /** Entries handed to the dead-letter policy and not yet settled. */
  readonly deadLettering = new Set<number>();
  /** Next entry to read from the source. */
  readPosition: number;
  buffer: SourceEntry[] = [];
  /** Changes whenever dispatch restarts from the ack state; results of older reads are dropped. */
  generation = 0;
  /** The ack state epoch dispatch last restarted from. */
  stateEpoch: number;
  /** Failover: dispatch waits (after a change of active consumer) until the subscription lets it go on. */
  holding = false;
  /** Shared round-robin position among consumers in join order. */
  roundRobin = 0;
  #joinSequence = 0;

  constructor(readPosition: number, stateEpoch: number) {
    this.readPosition = readPosition;
    this.stateEpoch = stateEpoch;
  }

  nextJoinSequence(): number {
    this.#joinSequence += 1;
    return this.#joinSequence;
  }

  /** Hands `meta` to `consumer`, which pays `cost` permits. */
  assign(meta: EntryMeta, consumer: ConsumerState, cost: number, deadline: number | undefined): void {
    consumer.permits -= cost;
    consumer.outstanding.add(meta.offset);
    this.outstanding.set(meta.offset, { consumer, meta, deadline });
    if (this.type === "Key_Shared") this.slotOwners.hold(meta.slot, consumer.id);
  }

  /** Takes `offset` back from the consumer holding it (nothing else changes). */
  release(offset: number): Outstanding | undefined {
    const held = this.outstanding.get(offset);
    if (held === undefined) return undefined;
    this.outstanding.delete(offset);
    held.consumer.outstanding.delete(offset);
    if (this.type === "Key_Shared") this.slotOwners.release(held.meta.slot);
    return held;
  }

  /** Takes `offsets` back from their consumers and queues them for redelivery (counted when `counted`). */
  requeue(offsets: Iterable<number>, counted: boolean): void {
    for (const offset of [...offsets]) {
      const held = this.release(offset);
      if (held === undefined) continue;
      if (counted) this.redeliveryCounts.set(offset, (this.redeliveryCounts.get(offset) ?? 0) + 1);
      this.replay.add(held.meta);
    }
  }

  /** Drops every trace of an acknowledged (or vanished) entry. */
  forget(offset: number): void {
    this.release(offset);
    this.replay.delete(offset);
    this.redeliveryCounts.delete(offset);
  }

  /** Forgets every entry below `markDeleteOffset` (acknowledged by a cumulative ack or a skip made elsewhere). */
  forgetBelow(markDeleteOffset: number): void {
    for (const offset of [...this.outstanding.keys()]) if (offset < markDeleteOffset) this.forget(offset);
    for (const meta of this.replay.entries()) {
      if (meta.offset >= markDeleteOffset) break;
      this.forget(meta.offset);
    }
  }

  /**
   * Restarts dispatch at `readPosition`: every entry handed out is taken back, nothing waits for redelivery, reads
   * in flight are dropped. Redelivery counts are kept.
   */
  restart(readPosition: number, stateEpoch: number): void {
    this.generation += 1;
    this.readPosition = readPosition;
    this.stateEpoch = stateEpoch;
    this.buffer = [];
    for (const offset of [...this.outstanding.keys()]) this.release(offset);
    this.replay.clear();
    this.slotOwners.clear();
  }

  /** Σ permits of the consumers entries may go to now. */
  availablePermits(): number {
    if (this.type === "Exclusive" || this.type === "Failover") return Math.max(0, this.active?.permits ?? 0);
    let total = 0;
    for (const consumer of this.consumers.values()) total += Math.max(0, consumer.permits);
    return total;
  }
}
