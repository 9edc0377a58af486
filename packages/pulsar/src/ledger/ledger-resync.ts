// The re-read of a managed ledger's end after a failed append: once nothing is in flight or unresolved (the write
// gate says so) it reads the stream's head and reopens admission at its committed end. A retryable failure tries
// again after a pause that doubles from the ledger's shortest to its longest retry delay (the timer does not hold
// the process); one that is not retryable is handed to the ledger to fail with. One re-read at a time.
import { NereusError, type StreamHead } from "@nereus/core";
import type { ManagedLedgerLimits, LedgerStreams } from "./managed-ledger-options.js";
import type { WriteGate } from "./write-gate.js";

export interface LedgerResyncOptions {
  readonly streams: LedgerStreams;
  readonly streamId: string;
  readonly gate: WriteGate;
  readonly limits: ManagedLedgerLimits;
  /** Aborted when the ledger closes: the pending read is abandoned and no retry is scheduled. */
  readonly signal: AbortSignal;
  /** The head as read, before admission reopens at its end. */
  readonly onHead: (head: StreamHead) => void;
  /** A failure the re-read cannot get past. */
  readonly onFatal: (error: unknown) => void;
}

/** See the module comment. */
export class LedgerResync {
  readonly #options: LedgerResyncOptions;
  #running = false;
  #delay: number;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: LedgerResyncOptions) {
    this.#options = options;
    this.#delay = options.limits.retryMinDelayMs;
  }

  /** Re-reads the head now if the gate is ready for it (and no re-read is running); otherwise does nothing. */
  whenReady(): void {
    const { gate, signal, streams, streamId } = this.#options;
    if (!gate.readyToResync || this.#running || signal.aborted) return;
    this.#running = true;
    void streams.getHead(streamId, { signal }).then(
      (head) => this.#read(head),
      (error: unknown) => this.#failed(error),
    );
  }

  /** Cancels a scheduled retry. */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #read(head: StreamHead): void {
    const { gate, limits, onHead } = this.#options;
    this.#running = false;
    this.#delay = limits.retryMinDelayMs;
    if (!gate.readyToResync) return this.whenReady();
    onHead(head);
    gate.resynced(head.committedEndOffset);
  }

  #failed(error: unknown): void {
    const { signal, limits, onFatal } = this.#options;
    this.#running = false;
    if (signal.aborted) return;
    if (NereusError.is(error) && !error.retryable) {
      onFatal(error);
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.whenReady();
    }, this.#delay);
    this.#timer.unref?.();
    this.#delay = Math.min(this.#delay * 2, limits.retryMaxDelayMs);
  }
}
