// Reading a ledger's entries and its last-add-confirmed from the bookies named by its metadata. Each entry is
// read from the bookies of its write set in order until one returns a copy whose digest, ledger id and entry id
// verify; "no such entry" from one replica is not final. LAC reads and fencing reads go to the whole last
// ensemble and succeed once the answers cover every write set (see distribution-schedule.ts). Payloads are views
// into received frames.
import { ErrorCode, NereusError } from "@nereus/core";
import type { DigestManager } from "../digest/digest-manager.js";
import { unpackEntry, type UnpackedEntry } from "../digest/entry-codec.js";
import { lastSegment, segmentFor, type LedgerMetadata } from "../metadata/ledger-metadata.js";
import type { BookieClient } from "./bookie-client.js";
import { isQuorumCovered, writeSetOf } from "./distribution-schedule.js";

/** One entry as returned to readers. */
export interface LedgerEntry {
  readonly entryId: number;
  /** The entry payload (a view into the received frame; copy before retaining long-term). */
  readonly payload: Uint8Array;
}

export interface ReadCallOptions {
  readonly signal?: AbortSignal;
}

/** Result of reading the last entry of every bookie in the last ensemble. */
export interface LastEntryProbe {
  /** Highest LAC carried by a verified last entry, or -1. */
  readonly lastAddConfirmed: number;
  /** Number of bookies that answered definitively. */
  readonly answered: number;
}

/** Outcome of a recovery read of one entry. */
export type RecoveryReadResult = { readonly found: true; readonly entry: UnpackedEntry } | { readonly found: false };

const DEFAULT_READ_CONCURRENCY = 32;

/**
 * Reads entries of one ledger.
 *
 * Invariants: a returned entry's digest, ledger id and entry id verified; a range read returns exactly
 * `last - first + 1` entries in id order or throws; nothing here writes or changes metadata (fencing reads change
 * the bookies' fence state only).
 */
export class LedgerEntryReader {
  readonly #bookies: BookieClient;
  readonly #ledgerId: bigint;
  readonly #digest: DigestManager;

  constructor(bookies: BookieClient, ledgerId: bigint, digest: DigestManager) {
    this.#bookies = bookies;
    this.#ledgerId = ledgerId;
    this.#digest = digest;
  }

  /** Reads one entry (with its header facts) from the first replica of its write set that has a verified copy. */
  async readEntry(metadata: LedgerMetadata, entryId: number, options: ReadCallOptions = {}): Promise<UnpackedEntry> {
    const ensemble = segmentFor(metadata, entryId).ensemble;
    const failures: NereusError[] = [];
    let notFound = 0;
    for (const index of writeSetOf(entryId, metadata.ensembleSize, metadata.writeQuorumSize)) {
      const bookieId = ensemble[index] as string;
      try {
        const result = await this.#bookies.readEntry(bookieId, { ledgerId: this.#ledgerId, entryId }, options);
        if (!result.found) {
          notFound += 1;
          continue;
        }
        return unpackEntry(result.body, this.#digest, { ledgerId: this.#ledgerId, entryId });
      } catch (error) {
        if (options.signal?.aborted === true) throw error;
        failures.push(
          NereusError.is(error)
            ? error
            : new NereusError(ErrorCode.PRIMARY_WAL_READ_FAILED, String(error), { cause: error }),
        );
      }
    }
    const details = {
      ledgerId: String(this.#ledgerId),
      entryId,
      notFound,
      failures: failures.map((failure) => failure.message),
    };
    if (failures.length === 0) {
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
        `entry ${String(entryId)} of ledger ${String(this.#ledgerId)} is on none of its ${String(notFound)} replicas`,
        { retryable: false, details },
      );
    }
    if (failures.every((failure) => failure.code === ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH) && notFound === 0) {
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
        `every replica of entry ${String(entryId)} of ledger ${String(this.#ledgerId)} failed verification`,
        {
          retryable: false,
          cause: failures[0],
          details,
        },
      );
    }
    throw new NereusError(
      ErrorCode.PRIMARY_WAL_READ_FAILED,
      `entry ${String(entryId)} of ledger ${String(this.#ledgerId)} could not be read: ${failures.map((failure) => failure.message).join("; ")}`,
      {
        retryable: true,
        cause: failures[0],
        details,
      },
    );
  }

  /** Reads `first..last` (inclusive) with bounded parallelism; entries come back in id order. */
  async readRange(
    metadata: LedgerMetadata,
    first: number,
    last: number,
    options: ReadCallOptions & { concurrency?: number } = {},
  ): Promise<LedgerEntry[]> {
    const count = last - first + 1;
    const out = new Array<LedgerEntry>(Math.max(0, count));
    let next = first;
    const worker = async () => {
      while (next <= last) {
        const entryId = next;
        next += 1;
        const entry = await this.readEntry(metadata, entryId, options);
        out[entryId - first] = { entryId, payload: entry.payload };
      }
    };
    const workers = Array.from({ length: Math.min(count, options.concurrency ?? DEFAULT_READ_CONCURRENCY) }, worker);
    await Promise.all(workers);
    return out;
  }

  /**
   * Reads the last entry of every bookie of the last ensemble — with `fenceKey`, fencing the ledger on each —
   * and returns the highest LAC they carry once the answers cover the ensemble.
   * @throws FENCED-style/authorization failures at once; PRIMARY_WAL_READ_FAILED (retryable) without coverage.
   */
  async probeLastEntries(
    metadata: LedgerMetadata,
    options: ReadCallOptions & { fenceKey?: Uint8Array } = {},
  ): Promise<LastEntryProbe> {
    const ensemble = lastSegment(metadata).ensemble;
    const answered = new Set<number>();
    const failures: NereusError[] = [];
    let lastAddConfirmed = -1;
    await Promise.all(
      ensemble.map(async (bookieId, index) => {
        try {
          const result = await this.#bookies.readEntry(
            bookieId,
            {
              ledgerId: this.#ledgerId,
              entryId: -1,
              ...(options.fenceKey === undefined ? {} : { fenceKey: options.fenceKey }),
            },
            options,
          );
          if (result.found) {
            const entry = unpackEntry(result.body, this.#digest, { ledgerId: this.#ledgerId });
            lastAddConfirmed = Math.max(lastAddConfirmed, entry.lastAddConfirmed);
          }
          answered.add(index);
        } catch (error) {
          failures.push(
            NereusError.is(error)
              ? error
              : new NereusError(ErrorCode.PRIMARY_WAL_READ_FAILED, String(error), { cause: error }),
          );
        }
      }),
    );
    const fatal = failures.find(
      (failure) => !failure.retryable && failure.code !== ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
    );
    if (fatal !== undefined) throw fatal;
    if (!isQuorumCovered(answered, metadata.ensembleSize, metadata.writeQuorumSize, metadata.ackQuorumSize)) {
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_READ_FAILED,
        `only ${String(answered.size)} of ${String(ensemble.length)} bookies of ledger ${String(this.#ledgerId)} answered; not enough to know its last confirmed entry`,
        {
          retryable: true,
          cause: failures[0],
          details: {
            ledgerId: String(this.#ledgerId),
            answered: answered.size,
            failures: failures.map((failure) => failure.message),
          },
        },
      );
    }
    return { lastAddConfirmed, answered: answered.size };
  }

  /**
   * Recovery read of one entry: asks every bookie of its write set (fencing), returns the first verified copy;
   * reports it missing only when at least Qw−Qa+1 replicas said "no such entry/ledger" (so it cannot have been
   * acknowledged). Anything in between is a retryable PRIMARY_WAL_READ_FAILED.
   */
  async recoveryRead(
    metadata: LedgerMetadata,
    entryId: number,
    fenceKey: Uint8Array,
    options: ReadCallOptions = {},
  ): Promise<RecoveryReadResult> {
    const ensemble = segmentFor(metadata, entryId).ensemble;
    const writeSet = writeSetOf(entryId, metadata.ensembleSize, metadata.writeQuorumSize);
    let missing = 0;
    const failures: NereusError[] = [];
    const results = await Promise.all(
      writeSet.map(async (index) => {
        const bookieId = ensemble[index] as string;
        try {
          const result = await this.#bookies.readEntry(
            bookieId,
            { ledgerId: this.#ledgerId, entryId, fenceKey },
            options,
          );
          if (!result.found) {
            missing += 1;
            return undefined;
          }
          return unpackEntry(result.body, this.#digest, { ledgerId: this.#ledgerId, entryId });
        } catch (error) {
          failures.push(
            NereusError.is(error)
              ? error
              : new NereusError(ErrorCode.PRIMARY_WAL_READ_FAILED, String(error), { cause: error }),
          );
          return undefined;
        }
      }),
    );
    const entry = results.find((result) => result !== undefined);
    if (entry !== undefined) return { found: true, entry };
    if (missing >= metadata.writeQuorumSize - metadata.ackQuorumSize + 1) return { found: false };
    throw new NereusError(
      ErrorCode.PRIMARY_WAL_READ_FAILED,
      `recovery read of entry ${String(entryId)} of ledger ${String(this.#ledgerId)} is inconclusive`,
      {
        retryable: true,
        cause: failures[0],
        details: {
          ledgerId: String(this.#ledgerId),
          entryId,
          missing,
          failures: failures.map((failure) => failure.message),
        },
      },
    );
  }
}
