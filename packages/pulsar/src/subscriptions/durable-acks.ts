// Ack state of a durable subscription: one cursor of @nereus/cursor. Acks go to the cursor handle (group-committed,
// resolved after their CAS); resets and deletion go through the stream's cursors, which protect the retention floor.
import { ErrorCode, NereusError } from "@nereus/core";
import type { BatchBits, CursorHandle, IndividualAck, MutationResult, StreamCursors } from "@nereus/cursor";
import type { AckTracker } from "./ack-tracker.js";
import { remainingWords } from "./batch-words.js";

/** The ack state of cursor `handle` of `cursors` (the handle must be that stream's open handle of its name). */
export class DurableAcks implements AckTracker {
  readonly durable = true;
  readonly #cursors: StreamCursors;
  readonly #handle: CursorHandle;

  constructor(cursors: StreamCursors, handle: CursorHandle) {
    this.#cursors = cursors;
    this.#handle = handle;
  }

  get name(): string {
    return this.#handle.name;
  }

  get stateEpoch(): number {
    return this.#handle.ackStateEpoch;
  }

  get markDeleteOffset(): number {
    return this.#handle.markDeleteOffset;
  }

  firstUnacked(): number {
    return this.#handle.firstUnacked();
  }

  nextUnacked(from: number): number {
    return this.#handle.nextUnacked(from);
  }

  isAcked(offset: number): boolean {
    return this.#handle.isAcked(offset);
  }

  remaining(offset: number, batchSize: number): readonly bigint[] | undefined {
    if (batchSize <= 1 || !this.#mayHavePartial(offset)) return undefined;
    try {
      return remainingWords(batchSize, (batchIndex) => this.#handle.isAcked(offset, batchIndex));
    } catch {
      // The cursor knows another batch size for this entry: its partial ack cannot describe this batch.
      return undefined;
    }
  }

  /** False when the cursor's state holds no partial ack for `offset` (the common case, answered without a scan). */
  #mayHavePartial(offset: number): boolean {
    const { base, view } = this.#handle.state;
    if (base.partials.has(offset)) return true;
    const inline = view.inlinePartials;
    let low = 0;
    let high = inline.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (inline[middle]!.offset < offset) low = middle + 1;
      else high = middle;
    }
    return inline[low]?.offset === offset;
  }

  /** Acks beyond the cursor's per-request limit are split into several requests (each all or nothing). */
  async individualAck(items: readonly IndividualAck[]): Promise<MutationResult> {
    const limit = this.#handle.owner.env.limits.maxAcksPerRequest;
    if (items.length <= limit) return this.#handle.individualAck(items);
    const requests: Promise<MutationResult>[] = [];
    for (let start = 0; start < items.length; start += limit) {
      requests.push(this.#handle.individualAck(items.slice(start, start + limit)));
    }
    const results = await Promise.all(requests);
    return { alreadyApplied: results.every((result) => result.alreadyApplied) };
  }

  cumulativeAck(offset: number, batch?: BatchBits): Promise<MutationResult> {
    return this.#handle.cumulativeAck(offset, batch === undefined ? {} : { partial: batch });
  }

  /** A target below the stream's trim lands on the first entry still stored (without `partial`). */
  async reset(target: number, partial?: BatchBits): Promise<void> {
    try {
      await this.#cursors.resetCursor(this.#handle.name, target, partial === undefined ? {} : { partial });
    } catch (error) {
      const trimOffset = NereusError.hasCode(error, ErrorCode.OFFSET_TRIMMED) ? error.details.trimOffset : undefined;
      if (typeof trimOffset !== "number" || trimOffset <= target) throw error;
      await this.#cursors.resetCursor(this.#handle.name, trimOffset);
    }
  }

  backlog(committedEnd: number): number {
    return this.#handle.backlog(committedEnd);
  }

  async delete(): Promise<void> {
    await this.#cursors.deleteCursor(this.#handle.name);
  }
}
