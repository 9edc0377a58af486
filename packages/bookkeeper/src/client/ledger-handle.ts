// The single writer of one ledger: assigns entry ids, packages entries (digest, piggybacked LAC), sends each to
// its round-robin write set, completes adds in entry-id order once Qa bookies acknowledged, replaces failed
// bookies through an ensemble change (new metadata segment by znode-version CAS, pending adds re-sent), and
// closes by writing CLOSED with the last confirmed entry. The handle keeps each payload by reference until its
// add settles; callers must not mutate it before then. Also used, in recovery mode, by ledger recovery to
// re-add recovered entries through the fence.
import { ErrorCode, NereusError } from "@nereus/core";
import { raceAbort } from "@nereus/core/internal";
import type { DigestManager } from "../digest/digest-manager.js";
import { ENTRY_HEADER_LENGTH, packageEntry } from "../digest/entry-codec.js";
import { abortError } from "../errors/map-bookie-error.js";
import type { BookieRegistry } from "../metadata/bookie-registry.js";
import { lastSegment, type LedgerMetadata, type LedgerSegment } from "../metadata/ledger-metadata.js";
import { DEFAULT_MAX_FRAME_SIZE } from "../protocol/frame-decoder.js";
import type { ZooKeeperLedgerMetadataStore } from "../metadata/ledger-metadata-store.js";
import type { BookieClient } from "./bookie-client.js";
import { writeSetOf } from "./distribution-schedule.js";
import { LedgerEntryReader, type LedgerEntry, type ReadCallOptions } from "./ledger-entry-reader.js";
import { chooseBookies } from "./placement.js";

/** What a handle needs from its client. */
export interface LedgerHandleContext {
  readonly bookies: BookieClient;
  readonly registry: BookieRegistry;
  readonly store: ZooKeeperLedgerMetadataStore;
}

/** Construction facts of a handle. */
export interface LedgerHandleInit {
  readonly ledgerId: bigint;
  readonly metadata: LedgerMetadata;
  /** Znode version of `metadata`. */
  readonly version: number;
  readonly digest: DigestManager;
  readonly masterKey: Uint8Array;
  /** Recovery mode: adds carry RECOVERY_ADD, ensemble changes stay local until `close()` writes them. */
  readonly recovery?: boolean;
  /** Entries already confirmed before this handle (recovery starts from the recovered LAC). */
  readonly lastAddConfirmed?: number;
  /** Ledger length in bytes at `lastAddConfirmed`. */
  readonly length?: number;
}

export interface AddOptions {
  /** Stops waiting; the add itself may still complete on the bookies (its outcome is then unknown). */
  readonly signal?: AbortSignal;
}

interface PendingAdd {
  readonly entryId: number;
  readonly body: readonly Uint8Array[];
  readonly lengthAfter: number;
  /** Ensemble index → bookie id the entry was last sent to at that index. */
  readonly sentTo: Map<number, string>;
  /** Ensemble indexes whose current bookie acknowledged the entry. */
  readonly acked: Set<number>;
  readonly resolve: (entryId: number) => void;
  readonly reject: (error: NereusError) => void;
  /** Set once the add resolved or failed; later bookie answers for it are ignored. */
  settled: boolean;
}

type HandleState = "open" | "closing" | "closed" | "failed";

const MAX_METADATA_ATTEMPTS = 8;
/** Room for the v3 envelope around an entry body (header, ids, master key, field tags). */
const REQUEST_OVERHEAD = 128;

function sameSegments(a: readonly LedgerSegment[], b: readonly LedgerSegment[]): boolean {
  return (
    a.length === b.length &&
    a.every((segment, index) => {
      const other = b[index];
      return (
        other !== undefined &&
        other.firstEntryId === segment.firstEntryId &&
        other.ensemble.join(",") === segment.ensemble.join(",")
      );
    })
  );
}

/**
 * A writable ledger.
 *
 * Invariants:
 * - entry ids are assigned 0, 1, 2, … in `addEntry` call order; add promises resolve in that order, and an add
 *   resolves only once Qa bookies of its write set (in the current ensemble) acknowledged it and every earlier
 *   add resolved — so `lastAddConfirmed` never exposes a gap;
 * - the LAC does not advance while an ensemble change is in progress; a new segment starts at LAC+1;
 * - a fenced ledger (another client opened it with recovery) fails every pending and later add with
 *   FENCED_APPEND; the handle never writes metadata after it learnt that;
 * - `close()` is idempotent: it waits for pending adds, then records CLOSED with `lastAddConfirmed` and the
 *   length at it; it rejects with FENCED_APPEND if someone else recovered the ledger to a different end.
 */
export class LedgerHandle {
  readonly ledgerId: bigint;
  readonly #context: LedgerHandleContext;
  readonly #digest: DigestManager;
  readonly #masterKey: Uint8Array;
  readonly #recovery: boolean;
  readonly #reader: LedgerEntryReader;
  #metadata: LedgerMetadata;
  #version: number;
  #lastAddPushed: number;
  #lastAddConfirmed: number;
  #pushedLength: number;
  #confirmedLength: number;
  readonly #pending: PendingAdd[] = [];
  #state: HandleState = "open";
  #failure: NereusError | undefined;
  #ensembleChange: Promise<void> | undefined;
  readonly #failedIndexes = new Map<number, string>();
  readonly #excludedBookies = new Set<string>();
  #closing: Promise<void> | undefined;
  #drained: (() => void) | undefined;
  #ensembleChanges = 0;

  constructor(context: LedgerHandleContext, init: LedgerHandleInit) {
    this.ledgerId = init.ledgerId;
    this.#context = context;
    this.#digest = init.digest;
    this.#masterKey = init.masterKey;
    this.#recovery = init.recovery === true;
    this.#metadata = init.metadata;
    this.#version = init.version;
    this.#lastAddConfirmed = init.lastAddConfirmed ?? -1;
    this.#lastAddPushed = this.#lastAddConfirmed;
    this.#confirmedLength = init.length ?? 0;
    this.#pushedLength = this.#confirmedLength;
    this.#reader = new LedgerEntryReader(context.bookies, init.ledgerId, init.digest);
  }

  /** Highest entry id such that it and all before it are acknowledged by an ack quorum (-1: none). */
  get lastAddConfirmed(): number {
    return this.#lastAddConfirmed;
  }

  /** Highest entry id handed out by `addEntry` (-1: none). */
  get lastAddPushed(): number {
    return this.#lastAddPushed;
  }

  /** Payload bytes of the confirmed entries. */
  get length(): number {
    return this.#confirmedLength;
  }

  /** The metadata as this handle last wrote or read it. */
  get metadata(): LedgerMetadata {
    return this.#metadata;
  }

  /** Znode version of `metadata`. */
  get metadataVersion(): number {
    return this.#version;
  }

  /** Ensemble changes this handle made. */
  get ensembleChanges(): number {
    return this.#ensembleChanges;
  }

  /** True once `close()` finished. */
  get isClosed(): boolean {
    return this.#state === "closed";
  }

  /**
   * Appends one entry; resolves with its entry id once it is confirmed (see the class invariants).
   * @throws INVALID_ARGUMENT for a payload that cannot fit a bookie frame (5 MiB minus overhead; the entry gets
   *   no id); FENCED_APPEND after fencing; PRIMARY_WAL_WRITE_FAILED when the ledger cannot continue (e.g. not
   *   enough bookies to replace a failed one); STORAGE_CLOSED after close; TIMEOUT/CANCELLED when `signal` ends the
   *   wait (the entry may still become confirmed).
   */
  addEntry(payload: Uint8Array, options: AddOptions = {}): Promise<number> {
    return this.#add(payload, options, undefined);
  }

  /**
   * Recovery mode only: re-adds entry `entryId` (which must be `lastAddPushed + 1`) with its original ledger
   * length, through the fence.
   */
  recoveryAddEntry(
    entryId: number,
    payload: Uint8Array,
    lengthAfter: number,
    options: AddOptions = {},
  ): Promise<number> {
    if (!this.#recovery)
      return Promise.reject(new NereusError(ErrorCode.INVALID_ARGUMENT, "recoveryAddEntry needs a recovery handle"));
    if (entryId !== this.#lastAddPushed + 1) {
      return Promise.reject(
        new NereusError(
          ErrorCode.INVALID_ARGUMENT,
          `recovered entry ${String(entryId)} does not follow ${String(this.#lastAddPushed)}`,
        ),
      );
    }
    return this.#add(payload, options, lengthAfter);
  }

  #add(payload: Uint8Array, options: AddOptions, lengthAfter: number | undefined): Promise<number> {
    if (this.#state !== "open") {
      return Promise.reject(
        this.#failure ??
          new NereusError(
            ErrorCode.STORAGE_CLOSED,
            `ledger ${String(this.ledgerId)} is ${this.#state === "closing" ? "closing" : "closed"}`,
          ),
      );
    }
    const frameSize = payload.length + ENTRY_HEADER_LENGTH + this.#digest.length + REQUEST_OVERHEAD;
    if (frameSize > DEFAULT_MAX_FRAME_SIZE) {
      // A bookie drops a connection that sends a larger frame: fail before the entry gets an id.
      return Promise.reject(
        new NereusError(
          ErrorCode.INVALID_ARGUMENT,
          `entry of ${String(payload.length)} bytes exceeds the bookie frame limit of ${String(DEFAULT_MAX_FRAME_SIZE)} bytes`,
          {
            retryable: false,
            details: { payloadLength: payload.length, maxFrameSize: DEFAULT_MAX_FRAME_SIZE },
          },
        ),
      );
    }
    const entryId = this.#lastAddPushed + 1;
    this.#lastAddPushed = entryId;
    this.#pushedLength = lengthAfter ?? this.#pushedLength + payload.length;
    const body = packageEntry(
      { ledgerId: this.ledgerId, entryId, lastAddConfirmed: this.#lastAddConfirmed, length: this.#pushedLength },
      payload,
      this.#digest,
    );
    let resolve!: (entryId: number) => void;
    let reject!: (error: NereusError) => void;
    const promise = new Promise<number>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    promise.catch(() => undefined); // Observed through the returned promise; never an unhandled rejection here.
    const op: PendingAdd = {
      entryId,
      body,
      lengthAfter: this.#pushedLength,
      sentTo: new Map(),
      acked: new Set(),
      resolve,
      reject,
      settled: false,
    };
    this.#pending.push(op);
    if (this.#ensembleChange === undefined) this.#sendMissing(op);
    const signal = options.signal;
    return raceAbort(promise, signal, () => abortError(signal as AbortSignal, `add of entry ${String(entryId)}`));
  }

  /** Sends `op` to every write-set index whose current bookie has not been sent it yet. */
  #sendMissing(op: PendingAdd): void {
    const ensemble = lastSegment(this.#metadata).ensemble;
    for (const index of writeSetOf(op.entryId, this.#metadata.ensembleSize, this.#metadata.writeQuorumSize)) {
      const bookieId = ensemble[index] as string;
      if (op.sentTo.get(index) === bookieId) continue;
      op.sentTo.set(index, bookieId);
      op.acked.delete(index);
      this.#context.bookies
        .addEntry(bookieId, {
          ledgerId: this.ledgerId,
          entryId: op.entryId,
          masterKey: this.#masterKey,
          body: op.body,
          recovery: this.#recovery,
        })
        .then(
          () => this.#onAck(op, index, bookieId),
          (error: unknown) => this.#onAddError(op, index, bookieId, error),
        );
    }
  }

  #isCurrent(op: PendingAdd, index: number, bookieId: string): boolean {
    return !op.settled && lastSegment(this.#metadata).ensemble[index] === bookieId && op.sentTo.get(index) === bookieId;
  }

  #onAck(op: PendingAdd, index: number, bookieId: string): void {
    if (!this.#isCurrent(op, index, bookieId)) return;
    op.acked.add(index);
    this.#drain();
  }

  #onAddError(op: PendingAdd, index: number, bookieId: string, error: unknown): void {
    if (this.#state === "failed" || this.#state === "closed") return;
    const failure = NereusError.is(error)
      ? error
      : new NereusError(ErrorCode.PRIMARY_WAL_WRITE_FAILED, String(error), { cause: error });
    if (failure.code === ErrorCode.FENCED_APPEND || !failure.retryable) {
      // Fenced, or the bookie refuses our master key: no other bookie would accept this ledger either.
      this.#fail(
        failure.code === ErrorCode.FENCED_APPEND
          ? failure
          : new NereusError(failure.code, failure.message, {
              retryable: false,
              cause: failure,
              details: failure.details,
            }),
      );
      return;
    }
    if (!this.#isCurrent(op, index, bookieId) && lastSegment(this.#metadata).ensemble[index] !== bookieId) return;
    this.#bookieFailed(index, bookieId);
  }

  #bookieFailed(index: number, bookieId: string): void {
    if (this.#excludedBookies.has(bookieId)) return; // Already being (or been) replaced.
    this.#excludedBookies.add(bookieId);
    this.#failedIndexes.set(index, bookieId);
    if (this.#ensembleChange === undefined) {
      const change = this.#changeEnsemble();
      this.#ensembleChange = change;
      change.then(
        () => {
          this.#ensembleChange = undefined;
          for (const op of this.#pending) this.#sendMissing(op);
          this.#drain();
        },
        (error: unknown) => {
          this.#ensembleChange = undefined;
          this.#fail(
            NereusError.is(error)
              ? error
              : new NereusError(ErrorCode.PRIMARY_WAL_WRITE_FAILED, String(error), { cause: error }),
          );
        },
      );
    }
  }

  /** Replaces every failed bookie (looping while new failures arrive) and records the new segment. */
  async #changeEnsemble(): Promise<void> {
    while (this.#failedIndexes.size > 0) {
      const failed = new Map(this.#failedIndexes);
      this.#failedIndexes.clear();
      const current = lastSegment(this.#metadata);
      const writable = await this.#context.registry.writableBookies();
      const exclude = new Set([...current.ensemble, ...this.#excludedBookies]);
      const replacements = chooseBookies(writable, failed.size, exclude);
      const ensemble = [...current.ensemble];
      let next = 0;
      for (const index of failed.keys()) ensemble[index] = replacements[next++] as string;
      const firstEntryId = this.#lastAddConfirmed + 1;
      const segments =
        current.firstEntryId === firstEntryId
          ? [...this.#metadata.segments.slice(0, -1), { firstEntryId, ensemble }]
          : [...this.#metadata.segments, { firstEntryId, ensemble }];
      if (this.#recovery) this.#metadata = { ...this.#metadata, segments };
      else await this.#writeSegments(segments);
      this.#ensembleChanges += 1;
    }
  }

  /** CAS-writes `segments` into the metadata, which must still be OPEN (else this writer was fenced). */
  async #writeSegments(segments: readonly LedgerSegment[]): Promise<void> {
    for (let attempt = 0; attempt < MAX_METADATA_ATTEMPTS; attempt += 1) {
      const next: LedgerMetadata = { ...this.#metadata, segments };
      const written = await this.#context.store.write(this.ledgerId, next, this.#version);
      if (written.ok) {
        this.#metadata = next;
        this.#version = written.version;
        return;
      }
      const current = written.current;
      if (current === undefined) {
        throw new NereusError(
          ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
          `ledger ${String(this.ledgerId)} was deleted while open`,
          { retryable: false },
        );
      }
      if (current.metadata.state !== "OPEN") {
        throw new NereusError(
          ErrorCode.FENCED_APPEND,
          `ledger ${String(this.ledgerId)} is ${current.metadata.state} (recovered by another client)`,
          {
            retryable: false,
            details: { ledgerId: String(this.ledgerId), state: current.metadata.state },
          },
        );
      }
      if (sameSegments(current.metadata.segments, segments)) {
        // Our previous write landed but its answer was lost.
        this.#metadata = current.metadata;
        this.#version = current.version;
        return;
      }
      this.#version = current.version;
    }
    throw new NereusError(
      ErrorCode.METADATA_CONDITION_FAILED,
      `ledger ${String(this.ledgerId)} metadata kept changing during an ensemble change`,
    );
  }

  /** Completes confirmed adds in order (never while the ensemble is changing). */
  #drain(): void {
    if (this.#ensembleChange !== undefined) return;
    const quorum = this.#metadata.ackQuorumSize;
    for (let head = this.#pending[0]; head !== undefined && head.acked.size >= quorum; head = this.#pending[0]) {
      this.#pending.shift();
      head.settled = true;
      this.#lastAddConfirmed = head.entryId;
      this.#confirmedLength = head.lengthAfter;
      head.resolve(head.entryId);
    }
    if (this.#pending.length === 0) this.#drained?.();
  }

  #fail(error: NereusError): void {
    if (this.#state === "failed" || this.#state === "closed") return;
    this.#state = "failed";
    this.#failure = error;
    const pending = this.#pending.splice(0);
    for (const op of pending) {
      op.settled = true;
      op.reject(error);
    }
    this.#drained?.();
  }

  /** Reads confirmed entries `first..last` of this ledger (both ≤ lastAddConfirmed). */
  async readEntries(first: number, last: number, options: ReadCallOptions = {}): Promise<LedgerEntry[]> {
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || first < 0 || first > last) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, `invalid entry range ${String(first)}..${String(last)}`);
    }
    if (last > this.#lastAddConfirmed) {
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
        `entry ${String(last)} is beyond the last confirmed entry ${String(this.#lastAddConfirmed)}`,
        {
          retryable: true,
          details: { ledgerId: String(this.ledgerId), lastAddConfirmed: this.#lastAddConfirmed },
        },
      );
    }
    return this.#reader.readRange(this.#metadata, first, last, options);
  }

  /**
   * Waits for pending adds, then records the ledger CLOSED at `lastAddConfirmed` (idempotent: later calls return
   * the same promise). A failed (e.g. fenced) handle writes nothing and reports why when the ledger's end differs.
   */
  close(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#closing === undefined) {
      const closing = this.#close(options);
      this.#closing = closing;
      closing.catch(() => {
        // A close abandoned by its caller's signal may be retried; any other outcome is final.
        if (options.signal?.aborted === true && this.#state !== "closed" && this.#closing === closing)
          this.#closing = undefined;
      });
    }
    return this.#closing;
  }

  async #close(options: { signal?: AbortSignal }): Promise<void> {
    if (this.#state === "open") this.#state = "closing";
    if (this.#pending.length > 0) {
      await new Promise<void>((resolve, reject) => {
        this.#drained = resolve;
        const signal = options.signal;
        signal?.addEventListener(
          "abort",
          () => reject(abortError(signal, `close of ledger ${String(this.ledgerId)}`)),
          { once: true },
        );
      });
    }
    // A late bookie failure can start an ensemble change after the last add completed: let it finish first, so
    // the close does not race its metadata write.
    await this.#ensembleChange?.catch(() => undefined);
    const failed = this.#state === "failed";
    const lastEntryId = this.#lastAddConfirmed;
    for (let attempt = 0; attempt < MAX_METADATA_ATTEMPTS; attempt += 1) {
      if (!failed) {
        const closed: LedgerMetadata = {
          ...this.#metadata,
          state: "CLOSED",
          lastEntryId,
          length: this.#confirmedLength,
        };
        const written = await this.#context.store.write(this.ledgerId, closed, this.#version, options);
        if (written.ok) {
          this.#metadata = closed;
          this.#version = written.version;
          this.#state = "closed";
          return;
        }
        if (written.current === undefined)
          throw new NereusError(ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND, `ledger ${String(this.ledgerId)} was deleted`, {
            retryable: false,
          });
        const current = written.current.metadata;
        const expectedState = this.#recovery ? "IN_RECOVERY" : "OPEN";
        if (current.state === expectedState) {
          // Version moved (e.g. a lost answer to our own write); retry on the fresh version.
          this.#version = written.current.version;
          if (!this.#recovery) this.#metadata = { ...current, segments: this.#metadata.segments };
          continue;
        }
        if (current.state === "CLOSED" && current.lastEntryId === lastEntryId) {
          this.#metadata = current;
          this.#version = written.current.version;
          this.#state = "closed";
          return;
        }
        this.#state = "failed";
        throw new NereusError(
          ErrorCode.FENCED_APPEND,
          `ledger ${String(this.ledgerId)} was ${current.state === "CLOSED" ? `closed at entry ${String(current.lastEntryId)}` : "put in recovery"} by another client`,
          {
            retryable: false,
            details: {
              ledgerId: String(this.ledgerId),
              state: current.state,
              lastEntryId: current.lastEntryId,
              ourLastAddConfirmed: lastEntryId,
            },
          },
        );
      }
      // Failed handle: report whether the ledger ended where we confirmed.
      const current = await this.#context.store.read(this.ledgerId, options);
      if (current?.metadata.state === "CLOSED" && current.metadata.lastEntryId === lastEntryId) {
        this.#state = "closed";
        return;
      }
      throw (
        this.#failure ?? new NereusError(ErrorCode.PRIMARY_WAL_WRITE_FAILED, `ledger ${String(this.ledgerId)} failed`)
      );
    }
    throw new NereusError(
      ErrorCode.METADATA_CONDITION_FAILED,
      `ledger ${String(this.ledgerId)} metadata kept changing during close`,
    );
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
