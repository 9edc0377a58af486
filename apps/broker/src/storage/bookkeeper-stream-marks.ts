// Marks of the streams a broker of this cluster created with a BookKeeper profile, so that a broker started without
// BookKeeper finds them with one scan and refuses to start (their appends and reads need the bookies). A stream is
// marked before it is created; a mark whose stream was deleted since — or never created, once the mark is old enough
// that no creation can still be under way — is dropped by the scan that passes it.
//   key    /nereus/clusters/{cluster}/broker/v1/bookkeeper-streams/{streamId}
//   value  JSON { "stream": name, "markedAt": epoch ms }
import { ErrorCode, type MetadataStore, NereusError, type StreamHead, type StreamStore } from "@nereus/core";
import { clusterPrefix, decodeKeyComponent, encodeKeyComponent } from "@nereus/core/internal";

/** How old a mark without its stream must be before a scan drops it (a creation is long done by then). */
const ABANDONED_MARK_MS = 10 * 60 * 1000;
const MARK_ATTEMPTS = 3;
const SCAN_PAGE = 500;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface StoredMark {
  readonly key: string;
  readonly modRevision: number;
  readonly streamId: string;
  readonly markedAt: number;
}

/**
 * The marks of one cluster. Invariant: every stream created through {@link mark}'s caller with a BookKeeper profile
 * has a mark from before its creation until a scan sees it deleted.
 */
export class BookKeeperStreamMarks {
  readonly #metadata: MetadataStore;
  readonly #prefix: string;
  readonly #clock: () => number;
  /** Stream ids marked by this process (a mark is written once per process and stream). */
  readonly #marked = new Set<string>();

  constructor(metadata: MetadataStore, cluster: string, clock: () => number = Date.now) {
    this.#metadata = metadata;
    this.#prefix = `${clusterPrefix(cluster)}/broker/v1/bookkeeper-streams/`;
    this.#clock = clock;
  }

  /** Marks `streamId` (named `streamName`); idempotent. Throws when the mark cannot be written. */
  async mark(streamId: string, streamName: string, signal?: AbortSignal): Promise<void> {
    if (this.#marked.has(streamId)) return;
    const key = this.#prefix + encodeKeyComponent(streamId);
    const value = encoder.encode(JSON.stringify({ stream: streamName, markedAt: this.#clock() }));
    for (let attempt = 1; ; attempt += 1) {
      try {
        // Put-if-absent: an existing mark keeps its revision, so a scan's conditional drop never removes a newer one.
        await this.#metadata.txn(
          { compares: [{ key, modRevision: 0 }], writes: [{ type: "put", key, value }] },
          signal === undefined ? {} : { signal },
        );
        this.#marked.add(streamId);
        return;
      } catch (error) {
        if (attempt >= MARK_ATTEMPTS || !NereusError.is(error) || !error.retryable) throw error;
      }
    }
  }

  /**
   * The head of the first marked stream that still exists (ACTIVE, SEALED or being deleted), or undefined when there
   * is none. Marks passed on the way whose stream is deleted, or absent and abandoned, are dropped.
   */
  async firstLiveStream(store: Pick<StreamStore, "getHead">, signal?: AbortSignal): Promise<StreamHead | undefined> {
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#metadata.scan(this.#prefix, {
        limit: SCAN_PAGE,
        ...(startAfter === undefined ? {} : { startAfter }),
        ...(signal === undefined ? {} : { signal }),
      });
      for (const item of page.items) {
        const mark = this.#decode(item.key, item.value, item.modRevision);
        const head = await this.#headOf(store, mark.streamId, signal);
        if (head !== undefined && head.state !== "DELETED") return head;
        if (head !== undefined || this.#clock() - mark.markedAt >= ABANDONED_MARK_MS) await this.#drop(mark);
      }
      if (!page.more || page.items.length === 0) return undefined;
      startAfter = page.items.at(-1)?.key;
    }
  }

  async #headOf(
    store: Pick<StreamStore, "getHead">,
    streamId: string,
    signal: AbortSignal | undefined,
  ): Promise<StreamHead | undefined> {
    try {
      return await store.getHead(streamId, signal === undefined ? {} : { signal });
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.STREAM_NOT_FOUND)) return undefined;
      throw error;
    }
  }

  async #drop(mark: StoredMark): Promise<void> {
    await this.#metadata.txn({
      compares: [{ key: mark.key, modRevision: mark.modRevision }],
      writes: [{ type: "delete", key: mark.key }],
    });
  }

  #decode(key: string, value: Uint8Array, modRevision: number): StoredMark {
    const streamId = decodeKeyComponent(key.slice(this.#prefix.length));
    let markedAt = 0;
    try {
      const parsed = JSON.parse(decoder.decode(value)) as { markedAt?: unknown };
      if (typeof parsed.markedAt === "number") markedAt = parsed.markedAt;
    } catch {
      // An unreadable mark counts as old: its stream decides whether it stays.
    }
    return { key, modRevision, streamId, markedAt };
  }
}
