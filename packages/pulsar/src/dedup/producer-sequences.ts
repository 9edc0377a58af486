// Broker-side deduplication state of one topic, as Pulsar keeps it (MessageDeduplication): per producer name the
// highest sequence id pushed (admitted to the ledger, maybe not persisted yet) and the highest persisted. A send
// whose sequence id is at or below the pushed one is a duplicate when it is also at or below the persisted one, and
// of unknown outcome otherwise (the producer retries later). The persisted table is derived from committed entries
// only (`applyEntry`, in offset order, at commit and on replay); `checkpoint` snapshots it at an entry boundary.
// After a failed append the pushed table falls back to the persisted one (`resetPushed`).

import type { DedupCheckpoint, ProducerSequence } from "./dedup-checkpoint-codec.js";
import { encodeStrictUtf8 } from "@nereus/core";
import { compareBytes } from "@nereus/core/internal";

/** What a send is, judged by its producer's sequence ids. */
export type SequenceVerdict =
  /** New: append it (`push` records it as pushed). */
  | "accept"
  /** Already persisted: answer its receipt without appending it again. */
  | "duplicate"
  /** Pushed but not known to be persisted: refuse it for now, the producer retries. */
  | "unknown";

/** The sequence id Pulsar reports for a producer it has never seen. */
export const NO_SEQUENCE_ID = -1n;

function max(left: bigint | undefined, right: bigint): bigint {
  return left === undefined || right > left ? right : left;
}

/** Producer sequence tables of one topic stream. Invariant: pushed >= persisted for every producer. */
export class ProducerSequences {
  readonly #persisted = new Map<string, bigint>();
  readonly #pushed = new Map<string, bigint>();
  #appliedEnd: number;

  /** An empty table valid below `appliedEnd` (the stream's trim offset when nothing is known). */
  constructor(appliedEnd = 0) {
    this.#appliedEnd = appliedEnd;
  }

  /** The table a checkpoint holds. */
  static fromCheckpoint(checkpoint: DedupCheckpoint): ProducerSequences {
    const sequences = new ProducerSequences(checkpoint.endOffset);
    for (const producer of checkpoint.producers) {
      sequences.#persisted.set(producer.producerName, producer.lastSequenceId);
      sequences.#pushed.set(producer.producerName, producer.lastSequenceId);
    }
    return sequences;
  }

  /** Every committed entry below this offset is applied. */
  get appliedEnd(): number {
    return this.#appliedEnd;
  }

  /** Producers known. */
  get size(): number {
    return this.#persisted.size;
  }

  /** The producers known (with a persisted sequence id). */
  producerNames(): string[] {
    return [...this.#persisted.keys()];
  }

  /** Highest sequence id persisted by `producerName`, or -1. */
  lastPersisted(producerName: string): bigint {
    return this.#persisted.get(producerName) ?? NO_SEQUENCE_ID;
  }

  /** Highest sequence id pushed by `producerName` (what a reconnecting producer continues after), or -1. */
  lastPushed(producerName: string): bigint {
    return this.#pushed.get(producerName) ?? NO_SEQUENCE_ID;
  }

  /** Judges a send of `producerName` whose first message has `sequenceId` (no state change). */
  check(producerName: string, sequenceId: bigint): SequenceVerdict {
    const pushed = this.#pushed.get(producerName);
    if (pushed === undefined || sequenceId > pushed) return "accept";
    const persisted = this.#persisted.get(producerName);
    return persisted !== undefined && sequenceId <= persisted ? "duplicate" : "unknown";
  }

  /** Records an accepted send as pushed (its last sequence id: max(sequenceId, highestSequenceId)). */
  push(producerName: string, lastSequenceId: bigint): void {
    this.#pushed.set(producerName, max(this.#pushed.get(producerName), lastSequenceId));
  }

  /**
   * Applies the committed entry at `offset` of `producerName` ending with `lastSequenceId`. Entries are applied in
   * offset order; an entry below `appliedEnd` (already applied) is ignored.
   */
  applyEntry(offset: number, producerName: string, lastSequenceId: bigint): void {
    if (offset < this.#appliedEnd) return;
    this.#persisted.set(producerName, max(this.#persisted.get(producerName), lastSequenceId));
    this.#pushed.set(producerName, max(this.#pushed.get(producerName), lastSequenceId));
    this.#appliedEnd = offset + 1;
  }

  /** Marks every entry below `endOffset` applied (entries that carry no producer, or a trimmed range skipped). */
  advanceTo(endOffset: number): void {
    if (endOffset > this.#appliedEnd) this.#appliedEnd = endOffset;
  }

  /** Forgets what was pushed but not persisted (after a failed append: those sends may be retried). */
  resetPushed(): void {
    this.#pushed.clear();
    for (const [name, sequenceId] of this.#persisted) this.#pushed.set(name, sequenceId);
  }

  /** Forgets `producerName` (an inactive producer; its next send is accepted whatever its sequence id). */
  forget(producerName: string): void {
    this.#persisted.delete(producerName);
    this.#pushed.delete(producerName);
  }

  /** The persisted table as a checkpoint of `streamId` at `appliedEnd`. */
  checkpoint(streamId: string): DedupCheckpoint {
    const producers: ProducerSequence[] = [...this.#persisted]
      .map(([producerName, lastSequenceId]) => ({
        producerName,
        lastSequenceId,
        bytes: encodeStrictUtf8(producerName),
      }))
      .sort((left, right) => compareBytes(left.bytes, right.bytes))
      .map(({ producerName, lastSequenceId }) => ({ producerName, lastSequenceId }));
    return { streamId, endOffset: this.#appliedEnd, producers };
  }
}
