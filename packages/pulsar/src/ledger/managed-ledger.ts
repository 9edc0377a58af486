// The managed ledger of one open topic incarnation: Pulsar's storage contract over one core stream. One Pulsar entry
// (a message or a batch, exactly as the producer framed it) is one opaque stream entry; its position is
// (virtual ledger id, stream offset). Appends are admitted in call order, each expected at the next offset, and
// settle in that order; at most as many as the shared append slots allow are in the store at once, the others wait
// their turn (the store would refuse them). An append of uncertain outcome fences writes until `recoverAppend`
// resolves it: committed, the caller gets its original position; not committed, one failure. Any failed append
// fences writes until the ledger re-read its end with nothing in flight, so no later entry of the same producer
// commits ahead of a retried earlier one. The ledger owns the stream's cursors (one `StreamCursors`), exposed for the
// subscriptions; trims go through their retention floor. It does not own the stream store.
import {
  AppendFailedError,
  type AppendResult,
  ErrorCode,
  NereusError,
  type StorageProfile,
  type StreamHead,
} from "@nereus/core";
import type { StreamCursors } from "@nereus/cursor";
import type { PulsarTopic } from "../topics/pulsar-topic.js";
import { isCorruption, unexpectedAppendResult, verdictWithin } from "./append-outcome-checks.js";
import { AppendSlots } from "./append-slots.js";
import type {
  AddEntryResult,
  LedgerEntry,
  ManagedLedgerState,
  ReadEntriesOptions,
  ReadEntriesResult,
  TrimOptions,
} from "./ledger-entries.js";
import { ledgerClosed, ledgerFailed, ledgerTerminated, writeFenced } from "./ledger-errors.js";
import { LedgerResync } from "./ledger-resync.js";
import { LedgerSnapshot } from "./ledger-snapshot.js";
import {
  DEFAULT_LEDGER_LIMITS,
  type LedgerStreams,
  type ManagedLedgerLimits,
  type ManagedLedgerOptions,
} from "./managed-ledger-options.js";
import type { Position } from "./position.js";
import { type LedgerBounds, PositionMapping } from "./position-mapping.js";
import { type AppendVerdict, recoverAppendVerdict } from "./recover-append-verdict.js";
import { TailWaiters } from "./tail-waiters.js";
import { type Admission, WriteGate } from "./write-gate.js";

/** The managed ledger of one topic incarnation (see the module comment). */
export class ManagedLedger implements AsyncDisposable {
  readonly topic: PulsarTopic;
  readonly name: string;
  readonly streamId: string;
  readonly ledgerId: bigint;
  readonly profile: StorageProfile;
  /** Position ↔ offset rules of this ledger. */
  readonly positions: PositionMapping;
  /** The stream's durable cursors (subscriptions). */
  readonly cursors: StreamCursors;
  readonly #streams: LedgerStreams;
  readonly #limits: ManagedLedgerLimits;
  readonly #snapshot: LedgerSnapshot;
  readonly #gate: WriteGate;
  readonly #slots: AppendSlots;
  readonly #tail = new TailWaiters();
  readonly #listeners = new Set<() => void>();
  readonly #closing = new AbortController();
  readonly #resync: LedgerResync;
  #terminal: "TERMINATING" | "TERMINATED" | undefined;
  #failure: NereusError | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: ManagedLedgerOptions) {
    this.topic = options.topic;
    this.name = options.topic.name;
    this.streamId = options.topic.streamId;
    this.ledgerId = options.topic.ledgerId;
    this.profile = options.topic.profile;
    this.positions = new PositionMapping(this.ledgerId, this.name);
    this.cursors = options.cursors;
    this.#streams = options.streams;
    this.#limits = { ...DEFAULT_LEDGER_LIMITS, ...options.limits };
    this.#snapshot = new LedgerSnapshot(options.head);
    this.#gate = new WriteGate(options.head.committedEndOffset);
    this.#slots = options.appendSlots ?? new AppendSlots();
    this.#resync = new LedgerResync({
      streams: this.#streams,
      streamId: this.streamId,
      gate: this.#gate,
      limits: this.#limits,
      signal: this.#closing.signal,
      onHead: (head) => this.#observeHead(head),
      onFatal: (error) => this.#fail(error),
    });
    this.#observeState(options.head);
  }

  get state(): ManagedLedgerState {
    if (this.#closed !== undefined) return "CLOSED";
    if (this.#failure !== undefined) return "FAILED";
    if (this.#terminal !== undefined) return this.#terminal;
    return this.#gate.fence === undefined ? "OPEN" : "WRITE_FENCED";
  }

  /** Trim offset and committed end as this ledger knows them. */
  bounds(): LedgerBounds {
    return { trimOffset: this.#snapshot.trimOffset, committedEndOffset: this.#snapshot.committedEndOffset };
  }

  /** The last committed entry, `(L, -1)` when there was none. */
  lastConfirmedEntry(): Position {
    return this.positions.lastConfirmed(this.#snapshot);
  }

  /** The position before the first readable entry (where a cursor at "earliest" stands). */
  firstPosition(): Position {
    return this.positions.beforeFirst(this.#snapshot);
  }

  /** Entries between the trim offset and the committed end. */
  numberOfEntries(): number {
    return this.#snapshot.entryCount;
  }

  /** Logical bytes ever committed to the ledger (trimmed entries included). */
  totalSize(): number {
    return this.#snapshot.cumulativeSize;
  }

  /**
   * Appends one entry, byte-exact (the store copies it; the caller may reuse its buffer once this returns a
   * promise), and resolves with its position once committed. Outcomes settle in call order. Fails before any I/O
   * with the ledger's refusal when it is not OPEN; with the store's `AppendFailedError` otherwise
   * (KNOWN_NOT_COMMITTED: not stored; MAY_HAVE_COMMITTED: still unresolved after `recoveryWaitMs`).
   */
  async addEntry(entry: Uint8Array, options: { readonly signal?: AbortSignal } = {}): Promise<AddEntryResult> {
    if (!(entry instanceof Uint8Array) || entry.length === 0) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, `topic ${this.name}: an entry must be a non-empty Uint8Array`);
    }
    this.#checkWritable();
    const admission = this.#gate.admit();
    try {
      const result = await this.#append(entry, admission, options.signal);
      return { offset: result.startOffset, position: this.positions.positionOf(result.startOffset) };
    } finally {
      this.#gate.finish();
      this.#resync.whenReady();
      await admission.previous;
      admission.settle();
    }
  }

  /**
   * Reads committed entries from `fromOffset` (OFFSET_TRIMMED below the trim offset; empty with `reachedEnd` at
   * or after the end). Each entry is one offset, returned in offset order with its exact bytes.
   */
  async readEntries(fromOffset: number, options: ReadEntriesOptions = {}): Promise<ReadEntriesResult> {
    if (this.#closed !== undefined) throw ledgerClosed(this.name);
    if (!Number.isSafeInteger(fromOffset) || fromOffset < 0) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `read offset must be a non-negative safe integer, got ${String(fromOffset)}`,
      );
    }
    let result;
    try {
      result = await this.#streams.read(this.streamId, fromOffset, {
        maxRecords: options.maxEntries ?? 100,
        maxBytes: options.maxBytes,
        timeoutMs: options.timeoutMs,
        signal: options.signal,
      });
    } catch (error) {
      const trimOffset = NereusError.hasCode(error, ErrorCode.OFFSET_TRIMMED) ? error.details["trimOffset"] : undefined;
      if (typeof trimOffset === "number") this.#snapshot.observeTrim(trimOffset);
      throw error;
    }
    const entries = result.entries.map((entry, index): LedgerEntry => {
      if (entry.offset !== fromOffset + index || entry.recordCount !== 1) {
        throw new NereusError(
          ErrorCode.METADATA_INVARIANT_VIOLATION,
          `topic ${this.name}: read at ${String(fromOffset)} returned entry ${String(entry.offset)} (${String(entry.recordCount)} records) at position ${String(index)}`,
        );
      }
      return { offset: entry.offset, position: this.positions.positionOf(entry.offset), payload: entry.payload };
    });
    this.#advanceEnd(result.committedEndOffset);
    return { entries, nextOffset: result.nextOffset, reachedEnd: result.endOfStream };
  }

  /**
   * Resolves once an entry at `offset` is committed, at once when it is; also when the ledger is terminated or
   * failed (no entry will come through it: check `state`). Rejects when the ledger closes or `signal` aborts.
   */
  waitForEntry(offset: number, signal?: AbortSignal): Promise<void> {
    if (this.#closed !== undefined) return Promise.reject(ledgerClosed(this.name));
    if (this.#terminal === "TERMINATED" || this.#failure !== undefined) return Promise.resolve();
    return this.#tail.wait(offset, this.#snapshot.committedEndOffset, signal);
  }

  /**
   * Calls `listener` whenever entries may have been committed or the ledger terminated or failed (possibly
   * spuriously; never synchronously from inside this call). Returns the function that removes it.
   */
  onEntriesAvailable(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Re-reads the stream's head and takes what it says (trims and commits made elsewhere, a seal). */
  async refresh(signal?: AbortSignal): Promise<LedgerBounds> {
    if (this.#closed !== undefined) throw ledgerClosed(this.name);
    const head = await this.#streams.getHead(this.streamId, { signal });
    this.#observeHead(head);
    return this.bounds();
  }

  /**
   * Trims the entries every cursor has acknowledged: raises the cursors' protected floor (the committed end when
   * there are no cursors), then trims up to it (and no further than `upTo`). Returns the trim offset.
   */
  async trimConsumed(options: TrimOptions = {}): Promise<number> {
    if (this.#closed !== undefined) throw ledgerClosed(this.name);
    const retention = await this.cursors.raiseFloor({ signal: options.signal });
    const target = Math.min(retention.protectedFloorOffset, options.upTo ?? Number.POSITIVE_INFINITY);
    let trimmed = retention.lastCompletedTrimOffset;
    if (target > trimmed) {
      const record = await this.cursors.trim(target, options.reason ?? "consumed", { signal: options.signal });
      trimmed = record.lastCompletedTrimOffset;
    }
    this.#snapshot.observeTrim(trimmed);
    return this.#snapshot.trimOffset;
  }

  /**
   * Terminates the ledger: no entry is added again (the stream is sealed once every admitted append settled).
   * Returns the last confirmed entry. Refused while writes are fenced; idempotent once terminated.
   */
  async terminate(signal?: AbortSignal): Promise<Position> {
    if (this.#terminal === "TERMINATED" && this.#closed === undefined) return this.lastConfirmedEntry();
    this.#checkWritable();
    this.#terminal = "TERMINATING";
    try {
      await this.#gate.idle();
      const head = await this.#streams.seal(this.streamId, { signal });
      this.#observeHead(head);
    } catch (error) {
      const head = await this.#streams.getHead(this.streamId, { signal }).catch(() => undefined);
      if (head !== undefined) this.#observeHead(head);
      if (this.#terminal === "TERMINATING") this.#terminal = undefined;
      this.#resync.whenReady();
      if (head?.state !== "SEALED") throw error;
    }
    return this.lastConfirmedEntry();
  }

  /** Refuses every later call, fails parked readers, stops recoveries and closes the cursors. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---- appends ----

  async #append(entry: Uint8Array, admission: Admission, signal: AbortSignal | undefined): Promise<AppendResult> {
    let result: AppendResult;
    try {
      result = await this.#storeAppend(entry, admission.expectedOffset, signal);
    } catch (error) {
      result = await this.#afterFailedAppend(error);
    }
    this.#checkResult(result, admission.expectedOffset, entry.length);
    this.#advanceEnd(result.committedEndOffset, result.cumulativeSize);
    return result;
  }

  /** The store's append of one entry at `expectedOffset`, once a slot is free (slots go in admission order). */
  async #storeAppend(
    entry: Uint8Array,
    expectedOffset: number,
    signal: AbortSignal | undefined,
  ): Promise<AppendResult> {
    await this.#slots.acquire();
    try {
      return await this.#streams.append(
        this.streamId,
        { payloadFormat: "PULSAR_ENTRY_BATCH", entries: [{ payload: entry, recordCount: 1 }] },
        { expectedStartOffset: expectedOffset, timeoutMs: this.#limits.appendTimeoutMs, signal },
      );
    } finally {
      this.#slots.release();
    }
  }

  /** An append failed: recover an uncertain one (its original result, or a failure), else fence and rethrow. */
  async #afterFailedAppend(error: unknown): Promise<AppendResult> {
    const attemptId = AppendFailedError.isAppendFailure(error) ? error.attemptId : undefined;
    if (attemptId === undefined || (error as AppendFailedError).outcome === "KNOWN_NOT_COMMITTED") {
      this.#afterRefusal(error);
      throw error;
    }
    const verdict = this.#recover(attemptId);
    const waited = await verdictWithin(verdict, this.#limits.recoveryWaitMs);
    if (waited === undefined) {
      // Still unresolved: the caller learns nothing more; the fence stays until recovery ends.
      this.#gate.markStale();
      throw error;
    }
    if (waited.kind === "committed") return waited.result;
    this.#gate.markStale();
    throw waited.kind === "not-committed" ? waited.error : ledgerFailed(this.name, waited.error);
  }

  /** Starts resolving `attemptId` in the background; writes stay fenced until it ends. */
  #recover(attemptId: string): Promise<AppendVerdict> {
    this.#gate.uncertain(attemptId);
    const verdict = recoverAppendVerdict(this.#streams, this.streamId, attemptId, {
      signal: this.#closing.signal,
      minDelayMs: this.#limits.retryMinDelayMs,
      maxDelayMs: this.#limits.retryMaxDelayMs,
    });
    void verdict.then((outcome) => {
      this.#gate.resolved(attemptId);
      if (outcome.kind === "unresolvable") this.#fail(outcome.error);
      this.#resync.whenReady();
    });
    return verdict;
  }

  /** A failed append that provably did not commit: the ledger end must be re-read before the next admission. */
  #afterRefusal(error: unknown): void {
    if (NereusError.hasCode(error, ErrorCode.FENCED_APPEND)) {
      this.#fail(error);
      return;
    }
    if (isCorruption(error)) this.#fail(error);
    this.#gate.markStale();
  }

  /** The result must be exactly the one entry admitted at `expected`; anything else is corruption. */
  #checkResult(result: AppendResult, expected: number, bytes: number): void {
    const error = unexpectedAppendResult(this.name, result, expected, bytes);
    if (error === undefined) return;
    this.#fail(error);
    throw error;
  }

  #checkWritable(): void {
    if (this.#closed !== undefined) throw ledgerClosed(this.name);
    if (this.#failure !== undefined) throw ledgerFailed(this.name, this.#failure);
    if (this.#terminal !== undefined) throw ledgerTerminated(this.name);
    const fence = this.#gate.fence;
    if (fence !== undefined) throw writeFenced(this.name, fence);
  }

  /** Fails the ledger for good (until reopened); parked readers and listeners are woken to notice. */
  #fail(error: unknown): void {
    if (this.#failure !== undefined || this.#closed !== undefined) return;
    this.#failure = NereusError.is(error)
      ? error
      : new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, String(error), { cause: error });
    this.#tail.releaseAll();
    this.#entriesAvailable();
  }

  // ---- the ledger end ----

  #advanceEnd(committedEndOffset: number, cumulativeSize?: number): void {
    const before = this.#snapshot.committedEndOffset;
    this.#snapshot.observeCommit(committedEndOffset, cumulativeSize);
    if (this.#snapshot.committedEndOffset > before) this.#entriesAvailable();
  }

  #observeHead(head: StreamHead): void {
    const before = this.#snapshot.committedEndOffset;
    this.#snapshot.observeHead(head);
    if (this.#snapshot.committedEndOffset > before) this.#entriesAvailable();
    this.#observeState(head);
  }

  /** Wakes parked readers and tells the listeners (each listener's failure is its own). */
  #entriesAvailable(): void {
    this.#tail.advance(this.#snapshot.committedEndOffset);
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // A listener must not break the append path; it is the listener's to report its own failures.
      }
    }
  }

  /** A sealed stream terminates the ledger; a deleted one fails it. */
  #observeState(head: StreamHead): void {
    if (head.state === "SEALED" && this.#terminal !== "TERMINATED") {
      this.#terminal = "TERMINATED";
      this.#tail.releaseAll();
      this.#entriesAvailable();
    } else if (head.state === "DELETING" || head.state === "DELETED") {
      this.#fail(new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `the stream of topic ${this.name} is ${head.state}`));
    }
  }

  async #close(): Promise<void> {
    const closed = ledgerClosed(this.name);
    this.#closing.abort(closed);
    this.#resync.stop();
    this.#tail.failAll(closed);
    await this.cursors.close();
  }
}
