// Reads and writes committed consumer-group offsets in the MetadataStore (keys: group-keys.ts, records:
// committed-offset-codec.ts and group-root-codec.ts). Writes are unconditional puts — the last commit of a
// partition wins, as in Kafka — chunked into transactions of at most 64 puts (etcd caps a txn at 128 operations),
// so a commit of many partitions is atomic per chunk, not as a whole; each partition's result is reported on
// its own. Reads are linearizable store reads, never a cache, so several brokers sharing etcd see one truth.
// It does not validate group membership: the coordinator does that before calling `commit`.
import type { MetadataStore, OperationOptions, WriteOp } from "@nereus/core";
import { type CommittedOffset, committedOffsetCodec } from "./committed-offset-codec.js";
import { committedOffsetKey, groupOffsetsPrefix, groupRootKey, groupRootsPrefix } from "./group-keys.js";
import { type GroupRoot, groupRootCodec } from "./group-root-codec.js";

const PUTS_PER_TXN = 64;
const SCAN_PAGE = 500;

/** One partition to commit. */
export interface OffsetToCommit {
  readonly topic: string;
  readonly partition: number;
  readonly committedOffset: number;
  readonly committedLeaderEpoch: number;
  readonly metadata: string;
}

/** The stored offsets of a group (a topic-partition absent from it has nothing committed). */
export type GroupOffsets = ReadonlyMap<string, ReadonlyMap<number, CommittedOffset>>;

/** Committed offsets of every group of one cluster. */
export class CommittedOffsetStore {
  readonly #metadata: MetadataStore;
  readonly #cluster: string;
  /** Groups whose root this process wrote or read, with the protocol type written (bounded by the group count). */
  readonly #knownRoots = new Map<string, string>();

  constructor(metadata: MetadataStore, cluster: string) {
    this.#metadata = metadata;
    this.#cluster = cluster;
  }

  /**
   * Stores `offsets` for `groupId` at `nowMs`. Resolves when every chunk applied; a failed chunk rejects (earlier
   * chunks stay applied — a retry rewrites the same values, which is harmless).
   */
  async commit(
    groupId: string,
    protocolType: string,
    offsets: readonly OffsetToCommit[],
    nowMs: number,
    options: OperationOptions = {},
  ): Promise<void> {
    const writes: WriteOp[] = [];
    if (this.#knownRoots.get(groupId) !== protocolType) {
      writes.push({
        type: "put",
        key: groupRootKey(this.#cluster, groupId),
        value: groupRootCodec.encode({ groupId, protocolType }),
      });
    }
    for (const offset of offsets) {
      const record: CommittedOffset = { groupId, ...offset, commitTimestampMs: nowMs };
      writes.push({
        type: "put",
        key: committedOffsetKey(this.#cluster, groupId, offset.topic, offset.partition),
        value: committedOffsetCodec.encode(record),
      });
    }
    for (let start = 0; start < writes.length; start += PUTS_PER_TXN) {
      await this.#metadata.txn({ compares: [], writes: writes.slice(start, start + PUTS_PER_TXN) }, options);
    }
    this.#knownRoots.set(groupId, protocolType);
  }

  /** The committed offsets of `groupId` for the given partitions (by topic), or of every partition when null. */
  async fetch(
    groupId: string,
    partitions: ReadonlyMap<string, readonly number[]> | null,
    options: OperationOptions = {},
  ): Promise<GroupOffsets> {
    const result = new Map<string, Map<number, CommittedOffset>>();
    const add = (record: CommittedOffset): void => {
      let topic = result.get(record.topic);
      if (topic === undefined) result.set(record.topic, (topic = new Map()));
      topic.set(record.partition, record);
    };
    if (partitions === null) {
      const prefix = groupOffsetsPrefix(this.#cluster, groupId);
      let startAfter: string | undefined;
      for (;;) {
        const page = await this.#metadata.scan(prefix, {
          limit: SCAN_PAGE,
          ...(startAfter === undefined ? {} : { startAfter }),
          signal: options.signal,
        });
        for (const item of page.items) add(committedOffsetCodec.decode(item.value, item.key));
        const last = page.items.at(-1);
        if (!page.more || last === undefined) break;
        startAfter = last.key;
      }
      return result;
    }
    const keys: string[] = [];
    for (const [topic, indexes] of partitions) {
      for (const partition of indexes) keys.push(committedOffsetKey(this.#cluster, groupId, topic, partition));
    }
    if (keys.length === 0) return result;
    const found = await this.#metadata.getMany(keys, options);
    for (const item of found.values()) add(committedOffsetCodec.decode(item.value, item.key));
    return result;
  }

  /** Every group with a root (it committed offsets at some point). */
  async listGroups(options: OperationOptions = {}): Promise<GroupRoot[]> {
    const prefix = groupRootsPrefix(this.#cluster);
    const roots: GroupRoot[] = [];
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#metadata.scan(prefix, {
        limit: SCAN_PAGE,
        ...(startAfter === undefined ? {} : { startAfter }),
        signal: options.signal,
      });
      for (const item of page.items) roots.push(groupRootCodec.decode(item.value, item.key));
      const last = page.items.at(-1);
      if (!page.more || last === undefined) break;
      startAfter = last.key;
    }
    return roots;
  }

  /**
   * Deletes every committed offset of `groupId`, then its root (last, so a deletion cut short leaves the group
   * listed and a retry finishes it). Answers whether the group had a root or offsets. Storage failures throw.
   */
  async deleteGroup(groupId: string, options: OperationOptions = {}): Promise<boolean> {
    const rootKey = groupRootKey(this.#cluster, groupId);
    const root = await this.#metadata.get(rootKey, options);
    const prefix = groupOffsetsPrefix(this.#cluster, groupId);
    let deleted = 0;
    for (;;) {
      // Deleted keys leave the prefix, so every pass starts from its beginning.
      const page = await this.#metadata.scan(prefix, { limit: PUTS_PER_TXN, signal: options.signal });
      if (page.items.length === 0) break;
      await this.#metadata.txn(
        { compares: [], writes: page.items.map((item) => ({ type: "delete" as const, key: item.key })) },
        options,
      );
      deleted += page.items.length;
      if (!page.more) break;
    }
    this.#knownRoots.delete(groupId);
    if (root !== undefined)
      await this.#metadata.txn({ compares: [], writes: [{ type: "delete", key: rootKey }] }, options);
    return root !== undefined || deleted > 0;
  }

  /** Deletes the committed offsets of `groupId` for `partitions` (absent ones are no-ops). Storage failures throw. */
  async deleteOffsets(
    groupId: string,
    partitions: ReadonlyArray<{ readonly topic: string; readonly partition: number }>,
    options: OperationOptions = {},
  ): Promise<void> {
    const writes: WriteOp[] = partitions.map(({ topic, partition }) => ({
      type: "delete",
      key: committedOffsetKey(this.#cluster, groupId, topic, partition),
    }));
    for (let start = 0; start < writes.length; start += PUTS_PER_TXN) {
      await this.#metadata.txn({ compares: [], writes: writes.slice(start, start + PUTS_PER_TXN) }, options);
    }
  }

  /** The root of `groupId`, or undefined when the group never committed. */
  async getGroup(groupId: string, options: OperationOptions = {}): Promise<GroupRoot | undefined> {
    const key = groupRootKey(this.#cluster, groupId);
    const item = await this.#metadata.get(key, options);
    return item === undefined ? undefined : groupRootCodec.decode(item.value, item.key);
  }
}
