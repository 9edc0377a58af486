// What subscriptions read: the committed entries of one topic (partition), as the managed-ledger facade serves them.
// The facade implements this interface; subscriptions never see frames or the storage engine behind it.

/**
 * One stored Pulsar entry (a single message or a batch) and the metadata dispatch needs. `bytes` are the stored
 * bytes, delivered as they are; they may be shared with caches: treat them as read-only.
 */
export interface SourceEntry {
  /** Stream offset of the entry (its Pulsar entry id). */
  readonly offset: number;
  readonly bytes: Uint8Array;
  /** Messages in the entry (1 for a message that is not batched). */
  readonly numMessages: number;
  /** Sticky key: the ordering key if the entry has one, else the partition key's UTF-8 bytes, else undefined. */
  readonly key?: Uint8Array;
  /** Publish time of the entry in epoch milliseconds. */
  readonly publishTime: number;
}

/** Options of every source read. */
export interface EntryReadOptions {
  readonly signal?: AbortSignal;
}

/**
 * The committed entries of one topic. Invariants: offsets are dense (every offset below the committed end is one
 * entry) and an entry never changes once committed; entries below the trim are gone.
 */
export interface EntrySource {
  /**
   * Up to `maxEntries` committed entries with offsets at or above `from`, ascending and consecutive, starting at
   * `max(from, trim)`; empty at the committed end. It may return fewer (to bound the bytes of one read), but at least
   * one while any entry at or above `from` is committed.
   */
  read(from: number, maxEntries: number, options?: EntryReadOptions): Promise<readonly SourceEntry[]>;
  /** The committed end: the offset the next entry will get. */
  endOffset(options?: EntryReadOptions): Promise<number>;
  /**
   * The first offset whose entry was published at or after `publishTime` (epoch milliseconds); the committed end
   * when there is none.
   */
  findByPublishTime(publishTime: number, options?: EntryReadOptions): Promise<number>;
  /**
   * Calls `listener` whenever new entries may have been committed (it may be called spuriously). Returns the
   * function that removes the listener.
   */
  onEntriesAvailable(listener: () => void): () => void;
}
