// Completion coordinator of the REQUIRED_OBJECT_GENERATION boundary (docs/architecture.md §6,
// "producer hears success when"): after the head CAS, the producer waits until a committed, read-verified higher
// generation covers the whole committed range — the materialization worker verified the output by reading it back
// before it could prepare it, and the coverage it publishes is written by the same transaction that commits the
// generation. It pokes the in-process worker and polls the stream's materialized coverage (one read per poll,
// backing off). With `verify`, it then reads the covering COMMITTED Object generation itself and requires the
// commit's exact entries: entry boundaries at the commit's offsets and, when a source reader serves the commit's
// own target (e.g. a BOOKKEEPER_ENTRY_RANGE, read through core's WalReader SPI), the same payload bytes and record
// counts as the primary WAL holds. It never changes the commit: a timeout (e.g. the object store is down) makes the append fail
// KNOWN_COMMITTED, and `recoverAppend` waits again — no primary-WAL write is ever repeated.
import { setTimeout as delay } from "node:timers/promises";
import {
  ErrorCode,
  NereusError,
  type CompletionContext,
  type CompletionCoordinator,
  type GenerationIndexEntry,
  type ReadTarget,
  type StoredEntry,
  type WalReader,
} from "@nereus/core";
import { StreamKeyspace, bytesEqual } from "@nereus/core/internal";
import type { MaterializationStateStore } from "../generations/materialization-state-store.js";
import type { CoverageCache } from "../generations/coverage-cache.js";

export interface RequiredGenerationCoordinatorOptions {
  readonly states: MaterializationStateStore;
  /** Asks the worker to run a pass now (optional). */
  readonly poke?: () => void;
  /** Coverage the in-process worker raises when it publishes: a poll is cut short then (optional). */
  readonly coverage?: CoverageCache;
  /** First poll delay, doubled up to `maxPollMs` (defaults 10 ms / 250 ms). */
  readonly minPollMs?: number;
  readonly maxPollMs?: number;
  /** Read back the covering generation before success (the cluster's keyspace and the OBJECT_SLICE reader). */
  readonly verify?: {
    readonly cluster: string;
    /** Reads the generation (OBJECT_SLICE). */
    readonly reader: WalReader;
    /** Reader of the commit's own target, to compare bytes with (none: only entry boundaries are checked). */
    readonly sources?: (target: ReadTarget) => WalReader | undefined;
  };
}

export class RequiredGenerationCoordinator implements CompletionCoordinator {
  readonly boundary = "REQUIRED_OBJECT_GENERATION" as const;
  readonly #options: RequiredGenerationCoordinatorOptions;
  readonly #keyspace: StreamKeyspace | undefined;
  /** Appends whose covering generation this coordinator read back. */
  verified = 0;

  constructor(options: RequiredGenerationCoordinatorOptions) {
    this.#options = options;
    this.#keyspace = options.verify === undefined ? undefined : new StreamKeyspace(options.verify.cluster);
  }

  async complete(context: CompletionContext): Promise<void> {
    // The generation is built from the generation-0 index; make sure this commit's entry exists.
    if (!context.generationZeroCommitted) await context.ensureGenerationZero({ signal: context.signal });
    const { streamId, endOffset } = context.result;
    let delay = this.#options.minPollMs ?? 10;
    const maxDelay = this.#options.maxPollMs ?? 250;
    for (;;) {
      const { record } = await this.#options.states.load(streamId, context.signal);
      if (record.materializedEnd >= endOffset) break;
      this.#options.poke?.();
      const cut = new AbortController();
      const published = this.#options.coverage?.changed(streamId, cut.signal).then(() => undefined);
      try {
        await (published === undefined
          ? sleep(delay, context.signal)
          : Promise.race([sleep(delay, context.signal), published]));
      } finally {
        cut.abort();
      }
      delay = Math.min(maxDelay, delay * 2);
    }
    if (this.#options.verify !== undefined && this.#keyspace !== undefined) {
      await this.#readBack(context, this.#keyspace, this.#options.verify.reader, this.#options.verify.sources);
      this.verified += 1;
    }
  }

  /** Reads the commit's range back from the COMMITTED generation covering it and checks it against the commit. */
  async #readBack(
    context: CompletionContext,
    keyspace: StreamKeyspace,
    reader: WalReader,
    sources: ((target: ReadTarget) => WalReader | undefined) | undefined,
  ): Promise<void> {
    const { streamId, startOffset, endOffset, readTarget } = context.result;
    const signal = context.signal;
    const covering = await findCovering(context, keyspace, streamId, startOffset, endOffset);
    if (covering === undefined || covering.readTarget.type !== "OBJECT_SLICE") {
      throw invariant(
        `no COMMITTED Object generation covers [${String(startOffset)}, ${String(endOffset)}) of stream ${streamId} although its coverage says so`,
      );
    }
    const stored = await reader.readEntries(covering.readTarget, { signal });
    const entries = clip(stored, covering, startOffset, endOffset);
    if (entries === undefined) {
      throw invariant(
        `generation ${String(covering.generation)} of stream ${streamId} does not split at [${String(startOffset)}, ${String(endOffset)})`,
      );
    }
    const source = readTarget.type === "OBJECT_SLICE" ? undefined : sources?.(readTarget);
    if (source === undefined) return;
    const original = await source.readEntries(readTarget, { signal });
    const same =
      original.length === entries.length &&
      original.every(
        (entry, index) =>
          entry.recordCount === entries[index]?.recordCount &&
          bytesEqual(entry.payload, (entries[index] as StoredEntry).payload),
      );
    if (!same) {
      throw new NereusError(
        ErrorCode.OBJECT_CHECKSUM_MISMATCH,
        `generation ${String(covering.generation)} of stream ${streamId} holds other entries than the committed ${readTarget.type} target of [${String(startOffset)}, ${String(endOffset)})`,
        { retryable: false, details: { streamId, generation: covering.generation } },
      );
    }
  }
}

/** The COMMITTED generation with the lowest start containing [start, end) (a level-2 merge may cover it). */
async function findCovering(
  context: CompletionContext,
  keyspace: StreamKeyspace,
  streamId: string,
  start: number,
  end: number,
): Promise<GenerationIndexEntry | undefined> {
  const startAt = keyspace.generationIndexScanStart(streamId, end);
  let startAfter: string | undefined;
  for (let page = 0; page < 64; page++) {
    const scanned = await context.metadata.scan(keyspace.generationIndexPrefix(streamId), {
      startAt,
      limit: 128,
      signal: context.signal,
      ...(startAfter === undefined ? {} : { startAfter }),
    });
    for (const item of scanned.items) {
      const entry = keyspace.decodeGenerationIndex(item);
      if (entry.state === "COMMITTED" && entry.offsetStart <= start && entry.offsetEnd >= end) return entry;
    }
    const last = scanned.items.at(-1);
    if (!scanned.more || last === undefined) return undefined;
    startAfter = last.key;
  }
  return undefined;
}

/** The entries of `covering` that hold exactly the offsets [start, end), or undefined when no entry boundary fits. */
function clip(
  stored: readonly StoredEntry[],
  covering: GenerationIndexEntry,
  start: number,
  end: number,
): StoredEntry[] | undefined {
  const out: StoredEntry[] = [];
  let offset = covering.offsetStart;
  for (const entry of stored) {
    const entryEnd = offset + entry.recordCount;
    if (entryEnd <= start) {
      offset = entryEnd;
      continue;
    }
    if (offset < start || entryEnd > end) return undefined;
    out.push(entry);
    offset = entryEnd;
    if (offset === end) return out;
  }
  return undefined;
}

function invariant(message: string): NereusError {
  return new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, message, { retryable: false });
}

/** Resolves after `ms`, or rejects with the append's error when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => {
    throw aborted(signal as AbortSignal);
  });
}

function aborted(signal: AbortSignal): NereusError {
  return NereusError.is(signal.reason)
    ? signal.reason
    : new NereusError(
        ErrorCode.TIMEOUT,
        "the required Object generation was not committed before the append's deadline",
        { cause: signal.reason },
      );
}
