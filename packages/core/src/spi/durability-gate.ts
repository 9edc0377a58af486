// A durability gate: a physical write that is under way, and the promise that it becomes durable. A WAL writer may
// hand its persisted target to the head transaction before the bytes are durable, with the gate as the txn's
// `after`: the metadata store must not apply the transaction until the gate opens, and must refuse it (as not
// applied) when the gate fails. So the head still never names bytes that are not durable, but building and sending
// the head transaction overlaps the write instead of following it. A gate may offer, in its optional `accelerations`
// (docs/architecture.md §2.1), a shared form that a store committing on another thread waits on directly (no hop
// through the event loop between the write's sync and the commit).
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/**
 * Shared words of a gate, readable from any thread: a `BigInt64Array` over `words` holds [0] the highest sequence
 * number known durable, [1] non-zero once the writer failed (waiters of sequences above [0] give up), [2] a change
 * counter that is incremented (and `Atomics.notify`-ed) after every change of [0] or [1]. Gate `sequence` opens
 * once word [0] reaches it; a waiter that sees [1] set first gives up.
 */
export interface SharedDurabilityGate {
  readonly words: SharedArrayBuffer;
  readonly sequence: number;
}

/** Indexes of the words of a {@link SharedDurabilityGate}. */
export const DurabilityGateWord = { durable: 0, failed: 1, changes: 2 } as const;

/** Words in a shared gate's `BigInt64Array`. */
export const DURABILITY_GATE_WORDS = 3;

/**
 * A write that may not be durable yet. Invariants: `durable` resolves only once the write is durable and rejects
 * when it failed (its bytes may then be absent). Whoever holds a gate must handle `durable`'s rejection.
 */
export interface DurabilityGate {
  readonly durable: Promise<void>;
  /**
   * Optional accelerations (see {@link DurabilityGateAccelerations}); absent on gates that offer none. Metadata
   * stores must work without it, waiting on `durable`.
   */
  readonly accelerations?: DurabilityGateAccelerations;
}

/** What a {@link DurabilityGate} may offer beyond its promise. None changes when the gate opens or fails. */
export interface DurabilityGateAccelerations {
  /**
   * The gate in shared memory: opens and fails exactly when `durable` settles so. A metadata store that commits on a
   * thread of its own (SQLite's writer thread) waits on these words there, and commits as soon as the write's sync
   * ended, without a hop through the event loop.
   */
  readonly shared?: SharedDurabilityGate;
}

/**
 * Waits for `gate` (a metadata store without a thread of its own calls this before applying a txn's writes).
 * Throws `PRIMARY_WAL_WRITE_FAILED` with `details.ambiguous === false` when the gate failed: the txn was not applied.
 */
export async function awaitDurabilityGate(gate: DurabilityGate, operation: string): Promise<void> {
  try {
    await gate.durable;
  } catch (error) {
    throw durabilityGateFailed(operation, error);
  }
}

/** The error of a txn refused because the write it depends on failed (nothing was applied). */
export function durabilityGateFailed(operation: string, cause: unknown): NereusError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new NereusError(
    ErrorCode.PRIMARY_WAL_WRITE_FAILED,
    `${operation}: not applied, the write it depends on did not become durable (${reason})`,
    {
      retryable: true,
      cause,
      details: { ambiguous: false },
    },
  );
}

/**
 * The writing side of shared gates: one `words` buffer per writer (a log that makes writes durable in sequence
 * order). Invariants: `open` never lowers the durable sequence, and raises it only for writes that are durable.
 */
export class SharedDurabilityGates {
  readonly words = new SharedArrayBuffer(DURABILITY_GATE_WORDS * 8);
  readonly #view = new BigInt64Array(this.words);
  #next = 0;

  /** The sequence number of the next gated write. */
  nextSequence(): number {
    this.#next += 1;
    return this.#next;
  }

  /** Every write up to `sequence` is durable. */
  open(sequence: number): void {
    const value = BigInt(sequence);
    if (Atomics.load(this.#view, DurabilityGateWord.durable) >= value) return;
    Atomics.store(this.#view, DurabilityGateWord.durable, value);
    Atomics.add(this.#view, DurabilityGateWord.changes, 1n);
    Atomics.notify(this.#view, DurabilityGateWord.changes);
  }

  /**
   * The writer failed: a waiter whose gate is not open yet gives up (its txn is refused). A write that was already
   * under way may still open its gate afterwards — its bytes are durable — but nobody relies on it.
   */
  fail(): void {
    if (Atomics.load(this.#view, DurabilityGateWord.failed) !== 0n) return;
    Atomics.store(this.#view, DurabilityGateWord.failed, 1n);
    Atomics.add(this.#view, DurabilityGateWord.changes, 1n);
    Atomics.notify(this.#view, DurabilityGateWord.changes);
  }
}
