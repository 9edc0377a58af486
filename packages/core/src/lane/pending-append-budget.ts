// Process-wide bound on appends accepted but not yet settled (queued or running in any lane), by count and by
// payload bytes (docs/architecture.md §4.1 "admission": exhaustion ⇒ BACKPRESSURE_REJECTED before any
// I/O). Protects memory when a lane is suspended or a backend slows down; never blocks, only refuses.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** Defaults (docs/architecture.md §10): 1,024 in-flight appends, 64 MiB buffered. */
const DEFAULT_MAX_PENDING_APPENDS = 1_024;
const DEFAULT_MAX_PENDING_BYTES = 64 * 1024 * 1024;

/** Counting semaphore over (appends, bytes). Invariant: `release` undoes exactly one successful `reserve`. */
export class PendingAppendBudget {
  readonly #maxAppends: number;
  readonly #maxBytes: number;
  #appends = 0;
  #bytes = 0;

  constructor(maxAppends = DEFAULT_MAX_PENDING_APPENDS, maxBytes = DEFAULT_MAX_PENDING_BYTES) {
    this.#maxAppends = maxAppends;
    this.#maxBytes = maxBytes;
  }

  /**
   * Reserves room for one append of `bytes` payload bytes, or throws retriable BACKPRESSURE_REJECTED. A single
   * append larger than the byte bound is admitted when nothing else is pending (so it can never starve).
   */
  reserve(bytes: number): void {
    const overBytes = this.#bytes > 0 && this.#bytes + bytes > this.#maxBytes;
    if (this.#appends >= this.#maxAppends || overBytes) {
      throw new NereusError(
        ErrorCode.BACKPRESSURE_REJECTED,
        `too many pending appends (${String(this.#appends)} appends, ${String(this.#bytes)} bytes; limits ${String(this.#maxAppends)} / ${String(this.#maxBytes)})`,
        { details: { pendingAppends: this.#appends, pendingBytes: this.#bytes } },
      );
    }
    this.#appends += 1;
    this.#bytes += bytes;
  }

  release(bytes: number): void {
    this.#appends -= 1;
    this.#bytes -= bytes;
  }

  get pendingAppends(): number {
    return this.#appends;
  }

  get pendingBytes(): number {
    return this.#bytes;
  }
}
