// A reader of one ledger, opened without recovery (a tailing reader: it never fences, never writes metadata) or
// after recovery (then the ledger is closed and its end final). It tracks the last-add-confirmed it knows and
// serves entries up to it; `readUnconfirmedEntries` reads past it for callers that know better.
import { ErrorCode, NereusError } from "@nereus/core";
import type { DigestManager } from "../digest/digest-manager.js";
import type { LedgerMetadata } from "../metadata/ledger-metadata.js";
import type { ZooKeeperLedgerMetadataStore } from "../metadata/ledger-metadata-store.js";
import type { BookieClient } from "./bookie-client.js";
import { LedgerEntryReader, type LedgerEntry, type ReadCallOptions } from "./ledger-entry-reader.js";

/** What a read-only handle needs from its client. */
export interface ReadOnlyLedgerContext {
  readonly bookies: BookieClient;
  readonly store: ZooKeeperLedgerMetadataStore;
}

export interface ReadOnlyLedgerInit {
  readonly ledgerId: bigint;
  readonly metadata: LedgerMetadata;
  readonly version: number;
  readonly digest: DigestManager;
  /** The LAC known at open: `lastEntryId` of a closed ledger, else what the bookies reported. */
  readonly lastAddConfirmed: number;
}

function validRange(first: number, last: number): void {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || first < 0 || first > last) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `invalid entry range ${String(first)}..${String(last)}`);
  }
}

/**
 * Read access to a ledger.
 *
 * Invariants: `lastAddConfirmed` only grows; for a closed ledger it equals the metadata's `lastEntryId` and
 * never changes; `readEntries` never returns an entry beyond it.
 */
export class ReadOnlyLedgerHandle {
  readonly ledgerId: bigint;
  readonly #context: ReadOnlyLedgerContext;
  readonly #reader: LedgerEntryReader;
  #metadata: LedgerMetadata;
  #version: number;
  #lastAddConfirmed: number;

  constructor(context: ReadOnlyLedgerContext, init: ReadOnlyLedgerInit) {
    this.ledgerId = init.ledgerId;
    this.#context = context;
    this.#metadata = init.metadata;
    this.#version = init.version;
    this.#lastAddConfirmed = init.lastAddConfirmed;
    this.#reader = new LedgerEntryReader(context.bookies, init.ledgerId, init.digest);
  }

  get metadata(): LedgerMetadata {
    return this.#metadata;
  }

  /** Znode version of `metadata`. */
  get metadataVersion(): number {
    return this.#version;
  }

  /** True when the metadata this handle knows says CLOSED. */
  get isClosed(): boolean {
    return this.#metadata.state === "CLOSED";
  }

  /** The last confirmed entry this handle knows (-1: none). */
  get lastAddConfirmed(): number {
    return this.#lastAddConfirmed;
  }

  /** Payload bytes of a closed ledger (0 while it is open). */
  get length(): number {
    return this.#metadata.length;
  }

  /**
   * Refreshes the LAC: from the metadata if the ledger has been closed meanwhile, else from the last entries on
   * the bookies of the last ensemble (entries carry their writer's LAC, so this trails the writer by about one
   * entry). Never fences.
   */
  async readLastAddConfirmed(options: ReadCallOptions = {}): Promise<number> {
    if (this.isClosed) return this.#lastAddConfirmed;
    const current = await this.#context.store.read(this.ledgerId, options);
    if (current === undefined) {
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
        `ledger ${String(this.ledgerId)} no longer exists`,
        { retryable: false },
      );
    }
    this.#metadata = current.metadata;
    this.#version = current.version;
    if (current.metadata.state === "CLOSED") {
      this.#lastAddConfirmed = current.metadata.lastEntryId;
      return this.#lastAddConfirmed;
    }
    const probe = await this.#reader.probeLastEntries(current.metadata, options);
    this.#lastAddConfirmed = Math.max(this.#lastAddConfirmed, probe.lastAddConfirmed);
    return this.#lastAddConfirmed;
  }

  /** Reads entries `first..last`, which must not exceed `lastAddConfirmed`. */
  async readEntries(first: number, last: number, options: ReadCallOptions = {}): Promise<LedgerEntry[]> {
    validRange(first, last);
    if (last > this.#lastAddConfirmed) {
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
        `entry ${String(last)} of ledger ${String(this.ledgerId)} is beyond the last confirmed entry ${String(this.#lastAddConfirmed)}`,
        {
          retryable: !this.isClosed,
          details: { ledgerId: String(this.ledgerId), lastAddConfirmed: this.#lastAddConfirmed, closed: this.isClosed },
        },
      );
    }
    return this.#reader.readRange(this.#metadata, first, last, options);
  }

  /** Reads entries `first..last` without the LAC bound (entries that do not exist fail with TARGET_NOT_FOUND). */
  async readUnconfirmedEntries(first: number, last: number, options: ReadCallOptions = {}): Promise<LedgerEntry[]> {
    validRange(first, last);
    return this.#reader.readRange(this.#metadata, first, last, options);
  }

  /** Nothing to release (connections belong to the client); idempotent. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
