// Broker-side deduplication of one open topic (one managed ledger), over its producer sequence table. Every send of
// the topic passes through `send` in arrival order: a new sequence id is recorded as pushed and appended; one at or
// below the producer's persisted sequence id is a duplicate, answered without appending; one still in flight waits
// for that append's outcome (a duplicate of it once it is stored). The persisted table follows committed appends in
// offset order. After any failed append — or a commit the table did not see in order — the table is no longer
// trusted: sends are refused (retryable) until the ledger admits writes again with nothing in flight, then the
// table catches up from the stream (an uncertain append counts exactly when core resolved it committed) and the
// pushed table falls back to the persisted one. The table is checkpointed every `checkpointEntries` applied entries
// and at close, so the next recovery replays a bounded tail; producer names no producer has been attached under for
// `inactiveProducerMs` are forgotten first (their next sends are new whatever their sequence ids), so the table
// does not grow with every producer that ever published.
import type { MetadataStore, StreamStore } from "@nereus/core";
import { ledgerClosed, ledgerFailed, ledgerTerminated, writeFenced } from "../ledger/ledger-errors.js";
import type { AddEntryResult } from "../ledger/ledger-entries.js";
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import type { Position } from "../ledger/position.js";
import type { PulsarKeyspace } from "../topics/pulsar-keys.js";
import type { ProducerSequences } from "./producer-sequences.js";
import {
  catchUpProducerSequences,
  recoverProducerSequences,
  writeDedupCheckpoint,
} from "./recover-producer-sequences.js";
import type { TrackedSequence } from "./tracked-sequence.js";

export interface TopicDeduplicationOptions {
  readonly metadata: MetadataStore;
  readonly streams: Pick<StreamStore, "read" | "getHead">;
  readonly keyspace: PulsarKeyspace;
  /** Applied entries between two checkpoints. */
  readonly checkpointEntries: number;
  /** How long a producer name stays known after its last producer detached. */
  readonly inactiveProducerMs: number;
  /** Wall clock in milliseconds. */
  readonly clock: () => number;
  /** Failed checkpoint writes (the next one retries). */
  readonly onError: (error: unknown) => void;
}

/** How deduplication settled a send. */
export type DedupOutcome =
  /** Appended: the entry's position. */
  | { readonly kind: "stored"; readonly position: Position }
  /** A duplicate, not appended again: the original's position when this broker saw it stored, else undefined. */
  | { readonly kind: "duplicate"; readonly position: Position | undefined };

/** An append of a tracked sequence whose outcome is not known yet. */
interface InFlightSend {
  readonly lastSequenceId: bigint;
  readonly settled: Promise<AddEntryResult>;
}

/** The deduplication state of one open topic (see the module comment). */
export class TopicDeduplication {
  readonly ledger: ManagedLedger;
  readonly #sequences: ProducerSequences;
  readonly #options: TopicDeduplicationOptions;
  readonly #inFlight = new Map<string, InFlightSend[]>();
  #inFlightCount = 0;
  /** Producers attached per name. */
  readonly #attached = new Map<string, number>();
  /** When the last producer of a name detached (names recovered from storage count from the recovery). */
  readonly #inactiveSince = new Map<string, number>();
  /** The table missed an outcome: it must catch up from the stream before judging sends again. */
  #stale = false;
  #catchingUp: Promise<void> | undefined;
  #checkpointedEnd: number;
  #checkpointing: Promise<void> | undefined;
  #checkpointAgain = false;
  #closed: Promise<void> | undefined;

  private constructor(
    ledger: ManagedLedger,
    sequences: ProducerSequences,
    checkpointedEnd: number,
    options: TopicDeduplicationOptions,
  ) {
    this.ledger = ledger;
    this.#sequences = sequences;
    this.#checkpointedEnd = checkpointedEnd;
    this.#options = options;
  }

  /**
   * Rebuilds the state of `ledger`'s stream from its checkpoint and the committed entries after it; writes a new
   * checkpoint right away when that replay was long. The names it holds count as inactive from now, except
   * `attachedNames` (producers already attached to the topic).
   */
  static async recover(
    ledger: ManagedLedger,
    options: TopicDeduplicationOptions,
    attachedNames: readonly string[] = [],
  ): Promise<TopicDeduplication> {
    const head = await options.streams.getHead(ledger.streamId);
    const recovered = await recoverProducerSequences({ ...options, head });
    const state = new TopicDeduplication(ledger, recovered.sequences, recovered.checkpoint?.endOffset ?? 0, options);
    const now = options.clock();
    const attached = new Set(attachedNames);
    for (const name of recovered.sequences.producerNames()) {
      if (!attached.has(name)) state.#inactiveSince.set(name, now);
    }
    if (recovered.replayedEntries >= options.checkpointEntries) state.#checkpoint();
    return state;
  }

  /** Highest sequence id of `producerName` admitted so far (what a reconnecting producer continues after), or -1. */
  lastSequenceId(producerName: string): bigint {
    return this.#sequences.lastPushed(producerName);
  }

  /**
   * Judges one send and appends it through `append` when it is new. `sequence` undefined: an entry deduplication
   * does not track (a marker, a chunk before the last), appended unjudged. Rejects with the append's error, or a
   * retryable WRITE_FENCED refusal while it cannot tell whether the send is a duplicate.
   */
  send(sequence: TrackedSequence | undefined, append: () => Promise<AddEntryResult>): Promise<DedupOutcome> {
    if (this.#catchingUp !== undefined) return this.#catchingUp.then(() => this.send(sequence, append));
    if (this.#stale) {
      const refusal = this.#refusalWhileStale();
      if (refusal !== undefined) return Promise.reject(refusal);
      return this.#startCatchUp().then(() => this.send(sequence, append));
    }
    return this.#admit(sequence, append);
  }

  /**
   * Brings a table that missed an outcome back to what is committed, when the ledger allows it now (else it stays
   * as it is until a later send or refresh). Rejects with the stream store's error.
   */
  refresh(): Promise<void> {
    if (this.#catchingUp !== undefined) return this.#catchingUp;
    if (!this.#stale || this.#refusalWhileStale() !== undefined) return Promise.resolve();
    return this.#startCatchUp();
  }

  /** A producer named `producerName` attached to the topic: the name is active. */
  producerAttached(producerName: string): void {
    this.#attached.set(producerName, (this.#attached.get(producerName) ?? 0) + 1);
    this.#inactiveSince.delete(producerName);
  }

  /** A producer named `producerName` detached; with the last one, the name's inactivity starts. */
  producerDetached(producerName: string): void {
    const left = (this.#attached.get(producerName) ?? 0) - 1;
    if (left > 0) {
      this.#attached.set(producerName, left);
      return;
    }
    this.#attached.delete(producerName);
    this.#inactiveSince.set(producerName, this.#options.clock());
  }

  /** Writes a last checkpoint once the pending one is written. Idempotent; `send` must not be called after it. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      await this.#checkpointing;
      if (this.#sequences.appliedEnd > this.#checkpointedEnd) await this.#writeCheckpoint();
    })();
    return this.#closed;
  }

  #admit(sequence: TrackedSequence | undefined, append: () => Promise<AddEntryResult>): Promise<DedupOutcome> {
    if (sequence === undefined) return this.#append(undefined, append);
    const { producerName, sequenceId } = sequence;
    switch (this.#sequences.check(producerName, sequenceId)) {
      case "accept":
        this.#sequences.push(producerName, sequence.lastSequenceId);
        return this.#append(sequence, append);
      case "duplicate":
        return Promise.resolve({ kind: "duplicate", position: undefined });
      case "unknown": {
        const earlier = this.#inFlight.get(producerName)?.find((send) => send.lastSequenceId >= sequenceId);
        if (earlier === undefined) return Promise.reject(this.#unknown(sequence));
        return earlier.settled.then(
          (result): DedupOutcome => ({ kind: "duplicate", position: result.position }),
          () => {
            throw this.#unknown(sequence);
          },
        );
      }
    }
  }

  #append(sequence: TrackedSequence | undefined, append: () => Promise<AddEntryResult>): Promise<DedupOutcome> {
    const settled = append();
    const inFlight: InFlightSend | undefined =
      sequence === undefined ? undefined : { lastSequenceId: sequence.lastSequenceId, settled };
    this.#track(sequence?.producerName, inFlight);
    return settled.then(
      (result): DedupOutcome => {
        this.#untrack(sequence?.producerName, inFlight);
        this.#applyStored(sequence, result.offset);
        return { kind: "stored", position: result.position };
      },
      (error: unknown) => {
        this.#untrack(sequence?.producerName, inFlight);
        this.#stale = true;
        throw error;
      },
    );
  }

  #track(producerName: string | undefined, send: InFlightSend | undefined): void {
    this.#inFlightCount += 1;
    if (producerName === undefined || send === undefined) return;
    const sends = this.#inFlight.get(producerName);
    if (sends === undefined) this.#inFlight.set(producerName, [send]);
    else sends.push(send);
  }

  #untrack(producerName: string | undefined, send: InFlightSend | undefined): void {
    this.#inFlightCount -= 1;
    if (producerName === undefined || send === undefined) return;
    const sends = this.#inFlight.get(producerName)?.filter((other) => other !== send) ?? [];
    if (sends.length === 0) this.#inFlight.delete(producerName);
    else this.#inFlight.set(producerName, sends);
  }

  /** A committed append at `offset`: applied when it is the next entry the table expects, else the table is stale. */
  #applyStored(sequence: TrackedSequence | undefined, offset: number): void {
    if (this.#stale) return;
    if (offset !== this.#sequences.appliedEnd) {
      this.#stale = true;
      return;
    }
    if (sequence === undefined) this.#sequences.advanceTo(offset + 1);
    else this.#sequences.applyEntry(offset, sequence.producerName, sequence.lastSequenceId);
    if (this.#sequences.appliedEnd - this.#checkpointedEnd >= this.#options.checkpointEntries) this.#checkpoint();
  }

  /** Why a send cannot be judged now, or undefined when the table may catch up. */
  #refusalWhileStale(): Error | undefined {
    const name = this.ledger.name;
    switch (this.ledger.state) {
      case "OPEN":
        return this.#inFlightCount === 0
          ? undefined
          : writeFenced(name, "deduplication waits for the appends in flight to settle");
      case "WRITE_FENCED":
        return writeFenced(name, "an earlier append is being resolved");
      case "TERMINATING":
      case "TERMINATED":
        return ledgerTerminated(name);
      case "FAILED":
        return ledgerFailed(name, "the ledger failed");
      case "CLOSED":
        return ledgerClosed(name);
    }
  }

  #startCatchUp(): Promise<void> {
    this.#catchingUp = this.#catchUp().finally(() => {
      this.#catchingUp = undefined;
    });
    return this.#catchingUp;
  }

  /** Applies what the stream committed since the table was last right; then nothing is pushed beyond it. */
  async #catchUp(): Promise<void> {
    const head = await this.#options.streams.getHead(this.ledger.streamId);
    await catchUpProducerSequences({ sequences: this.#sequences, streams: this.#options.streams, head });
    this.#sequences.resetPushed();
    this.#stale = false;
  }

  #unknown(sequence: TrackedSequence): Error {
    return writeFenced(
      this.ledger.name,
      `whether sequence id ${String(sequence.sequenceId)} of producer ${sequence.producerName} is a duplicate is not known yet`,
    );
  }

  /** Starts writing a checkpoint, or asks the one being written to be followed by another. */
  #checkpoint(): void {
    if (this.#checkpointing !== undefined) {
      this.#checkpointAgain = true;
      return;
    }
    this.#checkpointing = (async () => {
      do {
        this.#checkpointAgain = false;
        await this.#writeCheckpoint();
      } while (this.#checkpointAgain && this.#closed === undefined);
    })().finally(() => {
      this.#checkpointing = undefined;
    });
  }

  /** Forgets the names inactive for `inactiveProducerMs` (none with an append in flight). */
  #forgetInactive(): void {
    const before = this.#options.clock() - this.#options.inactiveProducerMs;
    for (const [name, since] of this.#inactiveSince) {
      if (since > before || this.#inFlight.has(name)) continue;
      this.#sequences.forget(name);
      this.#inactiveSince.delete(name);
    }
  }

  async #writeCheckpoint(): Promise<void> {
    this.#forgetInactive();
    const end = this.#sequences.appliedEnd;
    try {
      const { metadata, keyspace } = this.#options;
      await writeDedupCheckpoint(metadata, keyspace, this.ledger.streamId, this.#sequences);
      this.#checkpointedEnd = Math.max(this.#checkpointedEnd, end);
    } catch (error) {
      this.#options.onError(error);
    }
  }
}
