// WalReader of BOOKKEEPER_ENTRY_RANGE targets (docs/architecture.md §5): opens the target's ledger read-only (never with
// recovery: reading must not fence the writer), reads exactly [firstEntryId, firstEntryId + entryCount) — past the
// reader's LAC if needed, since a committed range was confirmed by an ack quorum before its commit — decodes each
// entry frame and verifies the range checksum (CRC32C of the concatenated payloads) before returning anything.
// Read handles are cached per ledger (LRU); a read that fails on a cached handle of a still-open ledger reopens it
// once (its ensemble may have changed since). Returned payloads are fresh copies owned by the caller.
import { setMaxListeners } from "node:events";
import {
  ErrorCode,
  NereusError,
  WAL_SPI_VERSION,
  crc32c,
  type ReadTarget,
  type ReadTargetType,
  type StoredEntry,
  type WalIoOptions,
  type WalReader,
} from "@nereus/core";
import type { BookKeeperClient } from "../client/bookkeeper-client.js";
import type { LedgerEntry } from "../client/ledger-entry-reader.js";
import type { ReadOnlyLedgerHandle } from "../client/read-only-ledger-handle.js";
import type { BookKeeperWalStats } from "./bookkeeper-wal-stats.js";
import { decodeEntryFrame } from "./entry-frame.js";

const LEDGER_ID_PATTERN = /^(0|[1-9][0-9]{0,18})$/;
const MAX_LEDGER_ID = (1n << 63n) - 1n;

export interface BookKeeperWalReaderOptions {
  readonly client: BookKeeperClient;
  /** Only targets of this alias are served (others: UNSUPPORTED_READ_TARGET). */
  readonly clusterAlias: string;
  readonly password: Uint8Array;
  readonly stats: BookKeeperWalStats;
  /** Read handles kept open (default 1,024). */
  readonly maxOpenLedgers?: number;
}

/**
 * BookKeeper WAL reader. Invariant: returns exactly `entryCount` entries whose payload CRC32C chain equals the
 * target's `rangeChecksum`, or throws (PRIMARY_WAL_CHECKSUM_MISMATCH for bytes that differ from what was written).
 */
export class BookKeeperWalReader implements WalReader {
  readonly spiVersion = WAL_SPI_VERSION;
  readonly targetTypes: readonly ReadTargetType[] = ["BOOKKEEPER_ENTRY_RANGE"];
  readonly #options: BookKeeperWalReaderOptions;
  readonly #maxOpen: number;
  readonly #handles = new Map<bigint, Promise<ReadOnlyLedgerHandle>>();

  constructor(options: BookKeeperWalReaderOptions) {
    this.#options = options;
    this.#maxOpen = options.maxOpenLedgers ?? 1024;
  }

  async readEntries(target: ReadTarget, options: WalIoOptions = {}): Promise<readonly StoredEntry[]> {
    if (target.type !== "BOOKKEEPER_ENTRY_RANGE") {
      throw new NereusError(
        ErrorCode.UNSUPPORTED_READ_TARGET,
        `the BookKeeper WAL reader does not read ${target.type} targets`,
        { retryable: false },
      );
    }
    if (target.clusterAlias !== this.#options.clusterAlias) {
      throw new NereusError(
        ErrorCode.UNSUPPORTED_READ_TARGET,
        `no reader for BookKeeper cluster alias ${JSON.stringify(target.clusterAlias)} (this one reads ${JSON.stringify(this.#options.clusterAlias)})`,
        {
          retryable: false,
          details: { clusterAlias: target.clusterAlias },
        },
      );
    }
    const ledgerId = LEDGER_ID_PATTERN.test(target.ledgerId) ? BigInt(target.ledgerId) : -1n;
    if (
      ledgerId < 0n ||
      ledgerId > MAX_LEDGER_ID ||
      !Number.isSafeInteger(target.firstEntryId) ||
      target.firstEntryId < 0 ||
      !Number.isSafeInteger(target.entryCount) ||
      target.entryCount < 1
    ) {
      throw new NereusError(
        ErrorCode.METADATA_INVARIANT_VIOLATION,
        `malformed BookKeeper target ${target.ledgerId}:${String(target.firstEntryId)}+${String(target.entryCount)}`,
        { retryable: false },
      );
    }
    const first = target.firstEntryId;
    const last = first + target.entryCount - 1;
    const raw = await this.#read(ledgerId, first, last, options.signal);
    const stats = this.#options.stats;
    stats.rangesRead += 1;
    stats.entriesRead += raw.length;
    if (raw.length !== target.entryCount) {
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
        `ledger ${target.ledgerId} returned ${String(raw.length)} entries for a range of ${String(target.entryCount)}`,
        { retryable: false },
      );
    }
    const entries: StoredEntry[] = [];
    let checksum = 0;
    for (const [index, entry] of raw.entries()) {
      if (entry.entryId !== first + index) {
        throw new NereusError(
          ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
          `ledger ${target.ledgerId} returned entry ${String(entry.entryId)} at position ${String(index)} of a range starting at ${String(first)}`,
          { retryable: false },
        );
      }
      const frame = decodeEntryFrame(entry.payload, `${target.ledgerId}:${String(entry.entryId)}`);
      checksum = crc32c(frame.payload, checksum);
      entries.push({ recordCount: frame.recordCount, payload: frame.payload.slice() });
    }
    if (checksum !== target.rangeChecksum) {
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
        `ledger ${target.ledgerId} entries ${String(first)}..${String(last)}: range checksum 0x${hex(checksum)} differs from the target's 0x${hex(target.rangeChecksum)}`,
        {
          retryable: false,
          details: { ledgerId: target.ledgerId, firstEntryId: first, entryCount: target.entryCount },
        },
      );
    }
    return entries;
  }

  /** Forgets every cached read handle (the next read of each ledger opens it again). */
  clearCache(): void {
    this.#handles.clear();
  }

  async #read(ledgerId: bigint, first: number, last: number, signal: AbortSignal | undefined): Promise<LedgerEntry[]> {
    if (signal === undefined) return this.#readWith(ledgerId, first, last, undefined);
    // The client reads a range with many requests in flight, each listening to the signal: give them a child signal
    // that may have that many listeners, instead of raising the caller's limit.
    const child = new AbortController();
    setMaxListeners(0, child.signal);
    const forward = (): void => child.abort(signal.reason);
    if (signal.aborted) forward();
    else signal.addEventListener("abort", forward, { once: true });
    try {
      return await this.#readWith(ledgerId, first, last, child.signal);
    } finally {
      signal.removeEventListener("abort", forward);
    }
  }

  async #readWith(
    ledgerId: bigint,
    first: number,
    last: number,
    signal: AbortSignal | undefined,
  ): Promise<LedgerEntry[]> {
    const call = signal === undefined ? {} : { signal };
    const cached = this.#handles.has(ledgerId);
    const handle = await this.#open(ledgerId);
    try {
      return await handle.readUnconfirmedEntries(first, last, call);
    } catch (error) {
      const stale =
        cached &&
        !handle.isClosed &&
        signal?.aborted !== true &&
        (NereusError.hasCode(error, ErrorCode.PRIMARY_WAL_READ_FAILED) ||
          NereusError.hasCode(error, ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND));
      if (!stale) throw error;
      this.#forget(ledgerId);
      return (await this.#open(ledgerId)).readUnconfirmedEntries(first, last, call);
    }
  }

  #open(ledgerId: bigint): Promise<ReadOnlyLedgerHandle> {
    const cached = this.#handles.get(ledgerId);
    if (cached !== undefined) {
      this.#handles.delete(ledgerId);
      this.#handles.set(ledgerId, cached);
      return cached;
    }
    this.#options.stats.ledgerOpens += 1;
    // Shared by every reader of the ledger, so no caller's signal may cancel it (client deadlines bound it).
    const opening = this.#options.client.openLedger(ledgerId, { recovery: false, password: this.#options.password });
    this.#handles.set(ledgerId, opening);
    opening.catch(() => {
      if (this.#handles.get(ledgerId) === opening) this.#handles.delete(ledgerId);
    });
    while (this.#handles.size > this.#maxOpen) {
      const oldest = this.#handles.keys().next().value;
      if (oldest === undefined) break;
      this.#handles.delete(oldest);
    }
    return opening;
  }

  #forget(ledgerId: bigint): void {
    this.#handles.delete(ledgerId);
  }
}

function hex(value: number): string {
  return value.toString(16).padStart(8, "0");
}
