// The entries of an open managed ledger as subscriptions read them (their EntrySource): reads start at the trim
// offset when asked for less, each entry comes with what dispatch needs from its metadata (message count, sticky
// key, publish time), parsed once per read and never re-framed; seek by publish time is a binary search over the
// retained entries (publish times are the producers' clocks: like Pulsar, it assumes they grow with the offset).
import { ErrorCode, NereusError } from "@nereus/core";
import { parseEntryMetadata } from "../entries/entry-metadata.js";
import { stickyKeyOf } from "../entries/sticky-key.js";
import type { EntryReadOptions, EntrySource, SourceEntry } from "../subscriptions/entry-source.js";
import type { LedgerEntry } from "./ledger-entries.js";
import type { ManagedLedger } from "./managed-ledger.js";

/** Attempts of one read when the trim offset moves under it. */
const TRIM_RETRIES = 3;

function sourceEntryOf(entry: LedgerEntry): SourceEntry {
  const described = parseEntryMetadata(entry.payload);
  const key = stickyKeyOf(entry.payload, described);
  return {
    offset: entry.offset,
    bytes: entry.payload,
    numMessages: described.numberOfMessages,
    ...(key === undefined ? {} : { key }),
    publishTime: Number(described.publishTime),
  };
}

/** The EntrySource of `ledger` (see the module comment). */
export function ledgerEntrySource(ledger: ManagedLedger): EntrySource {
  async function read(from: number, maxEntries: number, options: EntryReadOptions = {}): Promise<SourceEntry[]> {
    for (let attempt = 0; ; attempt += 1) {
      const start = Math.max(from, ledger.bounds().trimOffset);
      try {
        const result = await ledger.readEntries(start, { maxEntries, signal: options.signal });
        return result.entries.map(sourceEntryOf);
      } catch (error) {
        // The trim moved past `start` since the ledger last saw it: the failed read taught it the new trim.
        if (!NereusError.hasCode(error, ErrorCode.OFFSET_TRIMMED) || attempt >= TRIM_RETRIES) throw error;
      }
    }
  }

  async function publishTimeAt(offset: number, signal: AbortSignal | undefined): Promise<number> {
    const [entry] = await read(offset, 1, { signal });
    if (entry === undefined) {
      throw new NereusError(ErrorCode.OFFSET_NOT_AVAILABLE, `topic ${ledger.name}: no entry at ${String(offset)}`);
    }
    return entry.publishTime;
  }

  return {
    read,

    endOffset(): Promise<number> {
      return Promise.resolve(ledger.bounds().committedEndOffset);
    },

    async findByPublishTime(publishTime: number, options: EntryReadOptions = {}): Promise<number> {
      let low = ledger.bounds().trimOffset;
      let high = ledger.bounds().committedEndOffset;
      while (low < high) {
        const middle = low + Math.floor((high - low) / 2);
        if ((await publishTimeAt(middle, options.signal)) >= publishTime) high = middle;
        else low = middle + 1;
        low = Math.max(low, ledger.bounds().trimOffset);
      }
      return low;
    },

    onEntriesAvailable(listener: () => void): () => void {
      return ledger.onEntriesAvailable(listener);
    },
  };
}
