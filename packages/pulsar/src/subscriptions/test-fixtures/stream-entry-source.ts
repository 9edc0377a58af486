// An EntrySource over a real core stream for tests: each entry's payload is a small JSON document carrying the
// metadata a Pulsar entry would (messages, key, publish time), so reads go through core's stream store while the
// test controls keys and batch sizes. Test-only (the managed-ledger facade is the real source).
import type { StreamStore } from "@nereus/core";
import { ErrorCode, NereusError } from "@nereus/core";
import type { EntrySource, SourceEntry } from "../entry-source.js";

/** What a test appends: one entry (a message, or a batch of `numMessages`). */
export interface TestEntry {
  readonly key?: string;
  readonly numMessages?: number;
  readonly publishTime?: number;
}

interface StoredMeta {
  readonly key: string | null;
  readonly numMessages: number;
  readonly publishTime: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class StreamEntrySource implements EntrySource {
  readonly #streams: StreamStore;
  readonly #streamId: string;
  readonly #listeners = new Set<() => void>();
  /** Number of `read` calls (tests check that reads are bounded). */
  reads = 0;
  /** When set, the next `read` fails with it (once). */
  failNextRead: Error | undefined;

  constructor(streams: StreamStore, streamId: string) {
    this.#streams = streams;
    this.#streamId = streamId;
  }

  /** Appends `entries` in one batch and signals listeners; returns the offset of the first. */
  async append(entries: readonly TestEntry[]): Promise<number> {
    const head = await this.#streams.getHead(this.#streamId);
    const first = head.committedEndOffset;
    await this.#streams.append(this.#streamId, {
      payloadFormat: "OPAQUE_RECORD_BATCH",
      entries: entries.map((entry, index) => ({
        payload: encoder.encode(
          JSON.stringify({
            key: entry.key ?? null,
            numMessages: entry.numMessages ?? 1,
            publishTime: entry.publishTime ?? 1_000 + first + index,
          } satisfies StoredMeta),
        ),
        recordCount: 1,
      })),
    });
    for (const listener of this.#listeners) listener();
    return first;
  }

  async read(from: number, maxEntries: number): Promise<readonly SourceEntry[]> {
    this.reads += 1;
    const failure = this.failNextRead;
    if (failure !== undefined) {
      this.failNextRead = undefined;
      throw failure;
    }
    let offset = from;
    for (;;) {
      try {
        const result = await this.#streams.read(this.#streamId, offset, { maxRecords: maxEntries });
        return result.entries.slice(0, maxEntries).map((entry) => toSourceEntry(entry.offset, entry.payload));
      } catch (error) {
        const trimOffset = NereusError.hasCode(error, ErrorCode.OFFSET_TRIMMED) ? error.details.trimOffset : undefined;
        if (typeof trimOffset !== "number" || trimOffset <= offset) throw error;
        offset = trimOffset;
      }
    }
  }

  async endOffset(): Promise<number> {
    return (await this.#streams.getHead(this.#streamId)).committedEndOffset;
  }

  async findByPublishTime(publishTime: number): Promise<number> {
    const end = await this.endOffset();
    for (let offset = 0; offset < end;) {
      const entries = await this.read(offset, 100);
      for (const entry of entries) if (entry.publishTime >= publishTime) return entry.offset;
      offset = (entries[entries.length - 1]?.offset ?? end) + 1;
    }
    return end;
  }

  onEntriesAvailable(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

function toSourceEntry(offset: number, payload: Uint8Array): SourceEntry {
  const meta = JSON.parse(decoder.decode(payload)) as StoredMeta;
  return {
    offset,
    bytes: payload,
    numMessages: meta.numMessages,
    publishTime: meta.publishTime,
    ...(meta.key === null ? {} : { key: encoder.encode(meta.key) }),
  };
}

/** The key a delivered entry carries (undefined when it has none). */
export function keyOf(entry: SourceEntry): string | undefined {
  return entry.key === undefined ? undefined : decoder.decode(entry.key);
}
