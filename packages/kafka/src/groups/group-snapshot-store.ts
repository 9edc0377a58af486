// Where the coordinator keeps each shared group's last Stable membership (group-snapshot.ts): written when a group
// turns Stable, deleted when it turns Empty, read when a coordinator takes a group over. Writes of one group apply in
// the order they were asked for; a failed read or write is logged and costs only a rebalance (members rejoin).
import { type MetadataStore, NereusError } from "@nereus/core";
import { type GroupSnapshot, decodeGroupSnapshot, encodeGroupSnapshot, groupStateKey } from "./group-snapshot.js";

interface SnapshotLogger {
  warn(event: string, fields: Record<string, unknown>): void;
}

/** See the module comment. */
export class GroupSnapshotStore {
  readonly #metadata: MetadataStore;
  readonly #cluster: string;
  readonly #logger: SnapshotLogger | undefined;
  /** Per group, the tail of its writes. */
  readonly #tails = new Map<string, Promise<void>>();

  constructor(metadata: MetadataStore, cluster: string, logger?: SnapshotLogger) {
    this.#metadata = metadata;
    this.#cluster = cluster;
    this.#logger = logger;
  }

  /** The stored snapshot of `groupId`, or undefined when there is none or it cannot be read (logged). */
  async load(groupId: string): Promise<GroupSnapshot | undefined> {
    const key = groupStateKey(this.#cluster, groupId);
    try {
      const found = await this.#metadata.get(key);
      return found === undefined ? undefined : decodeGroupSnapshot(found.value, key);
    } catch (error) {
      if (!NereusError.is(error)) throw error;
      this.#logger?.warn("reading a group snapshot failed", { groupId, error: error.message });
      return undefined;
    }
  }

  /** Stores `snapshot` for `groupId`, or deletes the stored one when undefined, after the group's earlier writes. */
  save(groupId: string, snapshot: GroupSnapshot | undefined): Promise<void> {
    const key = groupStateKey(this.#cluster, groupId);
    const write = async (): Promise<void> => {
      try {
        await this.#metadata.txn({
          compares: [],
          writes: [
            snapshot === undefined
              ? { type: "delete", key }
              : { type: "put", key, value: encodeGroupSnapshot(snapshot) },
          ],
        });
      } catch (error) {
        this.#logger?.warn("writing a group snapshot failed", { groupId, error: String(error) });
      }
    };
    const tail = (this.#tails.get(groupId) ?? Promise.resolve()).then(write);
    this.#tails.set(groupId, tail);
    void tail.finally(() => {
      if (this.#tails.get(groupId) === tail) this.#tails.delete(groupId);
    });
    return tail;
  }
}
