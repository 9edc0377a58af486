// Ack state of a non-durable subscription (a reader): the same model as a durable cursor — a mark-delete offset,
// whole entries acknowledged above it, partial batches — kept in this process only and lost with it. Acks resolve
// at once. Sized for readers, which acknowledge little out of order: whole acks above markDelete are a set.
import { ErrorCode, NereusError } from "@nereus/core";
import type { BatchBits, IndividualAck, MutationResult } from "@nereus/cursor";
import type { AckTracker } from "./ack-tracker.js";
import { andWords, checkBatchBits, countRemaining, fullWords } from "./batch-words.js";

const APPLIED: MutationResult = { alreadyApplied: false };
const ALREADY: MutationResult = { alreadyApplied: true };

/** In-memory ack state starting with `markDeleteOffset` as the next entry to deliver. */
export class MemoryAcks implements AckTracker {
  readonly durable = false;
  #stateEpoch = 1;
  #markDelete: number;
  readonly #whole = new Set<number>();
  readonly #partials = new Map<number, BatchBits>();

  constructor(markDeleteOffset: number) {
    checkOffset(markDeleteOffset, "start offset");
    this.#markDelete = markDeleteOffset;
  }

  get stateEpoch(): number {
    return this.#stateEpoch;
  }

  get markDeleteOffset(): number {
    return this.#markDelete;
  }

  firstUnacked(): number {
    return this.nextUnacked(this.#markDelete);
  }

  nextUnacked(from: number): number {
    let offset = Math.max(from, this.#markDelete);
    while (this.#whole.has(offset)) offset++;
    return offset;
  }

  isAcked(offset: number): boolean {
    return offset < this.#markDelete || this.#whole.has(offset);
  }

  remaining(offset: number, batchSize: number): readonly bigint[] | undefined {
    if (this.isAcked(offset)) return [];
    const partial = this.#partials.get(offset);
    return partial?.batchSize === batchSize ? partial.remaining : undefined;
  }

  individualAck(items: readonly IndividualAck[]): Promise<MutationResult> {
    try {
      items.forEach((item, index) => checkAck(item.offset, item.batch, `ack ${index}`));
      let applied = false;
      for (const item of items) applied = this.#ackOne(item.offset, item.batch) || applied;
      this.#fold();
      return Promise.resolve(applied ? APPLIED : ALREADY);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  cumulativeAck(offset: number, batch?: BatchBits): Promise<MutationResult> {
    try {
      checkAck(offset, batch, "cumulative ack");
      const through = batch === undefined ? offset + 1 : offset;
      let applied = false;
      if (through > this.firstUnacked()) {
        this.#markDelete = through;
        applied = true;
      }
      if (batch !== undefined) applied = this.#ackOne(offset, batch) || applied;
      this.#fold();
      return Promise.resolve(applied ? APPLIED : ALREADY);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  reset(target: number, partial?: BatchBits): Promise<void> {
    try {
      checkAck(target, partial, "reset target");
      this.#markDelete = target;
      this.#whole.clear();
      this.#partials.clear();
      this.#stateEpoch += 1;
      if (partial !== undefined) this.#ackOne(target, partial);
      this.#fold();
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  backlog(committedEnd: number): number {
    if (committedEnd <= this.#markDelete) return 0;
    let acked = 0;
    for (const offset of this.#whole) if (offset < committedEnd) acked++;
    return committedEnd - this.#markDelete - acked;
  }

  delete(): Promise<void> {
    return Promise.resolve();
  }

  /** Applies one checked ack; true when it changed the state. */
  #ackOne(offset: number, batch: BatchBits | undefined): boolean {
    if (this.isAcked(offset)) return false;
    if (batch === undefined) return this.#ackWhole(offset);
    const current = this.#partials.get(offset);
    if (current !== undefined && current.batchSize !== batch.batchSize) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `entry ${offset} is a batch of ${current.batchSize}, not ${batch.batchSize}`,
        { retryable: false },
      );
    }
    const merged = andWords(current?.remaining ?? fullWords(batch.batchSize), batch.remaining);
    if (merged.length === 0) return this.#ackWhole(offset);
    if (countRemaining(merged) === countRemaining(current?.remaining ?? fullWords(batch.batchSize))) return false;
    this.#partials.set(offset, { batchSize: batch.batchSize, remaining: merged });
    return true;
  }

  #ackWhole(offset: number): boolean {
    this.#whole.add(offset);
    this.#partials.delete(offset);
    return true;
  }

  /** Advances markDelete over whole acks and drops what fell below it. */
  #fold(): void {
    while (this.#whole.delete(this.#markDelete)) this.#markDelete++;
    for (const offset of this.#whole) if (offset < this.#markDelete) this.#whole.delete(offset);
    for (const offset of this.#partials.keys()) if (offset < this.#markDelete) this.#partials.delete(offset);
  }
}

function checkAck(offset: number, batch: BatchBits | undefined, what: string): void {
  checkOffset(offset, `${what} offset`);
  if (batch !== undefined) checkBatchBits(batch, what);
}

function checkOffset(offset: number, what: string): void {
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `${what} must be a non-negative safe integer, got ${offset}`, {
      retryable: false,
    });
  }
}
