// Durable ACLs in the cluster's MetadataStore: one KafkaAcls record per resource pattern (acl-keys.ts). Adding and
// removing entries is a read-modify-write of that record with a compare on its modRevision, retried on a lost race;
// both are idempotent (adding a present entry or removing an absent one changes nothing), so an ambiguous outcome is
// resolved by simply trying again against the reloaded record. Several brokers may write at once.
import { ErrorCode, type MetadataStore, MetadataAmbiguousError, NereusError } from "@nereus/core";
import { AclIndex, type PatternAcls } from "./acl-index.js";
import { AclKeyspace } from "./acl-keys.js";
import { aclRecordCodec, compareEntries } from "./acl-record-codec.js";
import type { AclEntry, ResourcePattern } from "./acl-types.js";
import type { RecordCodec } from "@nereus/core/internal";

const SCAN_PAGE = 500;
const MAX_ATTEMPTS = 16;

/** How one record changes: the entries to keep given the current ones (sorted, unique). */
type EntriesChange = (current: readonly AclEntry[]) => readonly AclEntry[];

function canonical(entries: readonly AclEntry[]): AclEntry[] {
  const sorted = [...entries].sort(compareEntries);
  return sorted.filter((entry, index) => index === 0 || compareEntries(sorted[index - 1]!, entry) !== 0);
}

function sameEntries(left: readonly AclEntry[], right: readonly AclEntry[]): boolean {
  return left.length === right.length && left.every((entry, index) => compareEntries(entry, right[index]!) === 0);
}

/** See the module comment. */
export class AclStore {
  readonly keyspace: AclKeyspace;
  readonly #metadata: MetadataStore;
  readonly #codec: RecordCodec<PatternAcls>;

  constructor(metadata: MetadataStore, cluster: string) {
    this.#metadata = metadata;
    this.keyspace = new AclKeyspace(cluster);
    this.#codec = aclRecordCodec(this.keyspace);
  }

  /** Every stored ACL (one paged scan). A record that fails to decode fails the load (METADATA_INVARIANT_VIOLATION). */
  async load(signal?: AbortSignal): Promise<AclIndex> {
    const patterns: PatternAcls[] = [];
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#metadata.scan(this.keyspace.prefix(), { limit: SCAN_PAGE, startAfter, signal });
      for (const item of page.items) patterns.push(this.#codec.decode(item.value, item.key));
      const last = page.items[page.items.length - 1];
      if (!page.more || last === undefined) break;
      startAfter = last.key;
    }
    return new AclIndex(patterns);
  }

  /** Adds `entries` to `pattern`'s record (present ones are kept once). */
  add(pattern: ResourcePattern, entries: readonly AclEntry[], signal?: AbortSignal): Promise<void> {
    return this.#update(pattern, (current) => canonical([...current, ...entries]), signal);
  }

  /** Removes `entries` from `pattern`'s record (the record goes when none is left). */
  remove(pattern: ResourcePattern, entries: readonly AclEntry[], signal?: AbortSignal): Promise<void> {
    const drop = (entry: AclEntry): boolean => entries.some((removed) => compareEntries(removed, entry) === 0);
    return this.#update(pattern, (current) => current.filter((entry) => !drop(entry)), signal);
  }

  async #update(pattern: ResourcePattern, change: EntriesChange, signal?: AbortSignal): Promise<void> {
    const key = this.keyspace.key(pattern);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const stored = await this.#metadata.get(key, { signal });
      const current = stored === undefined ? [] : this.#codec.decode(stored.value, key).entries;
      const next = change(current);
      if (sameEntries(current, next)) return;
      const write =
        next.length === 0
          ? ({ type: "delete", key } as const)
          : ({ type: "put", key, value: this.#codec.encode({ pattern, entries: next }) } as const);
      try {
        const result = await this.#metadata.txn(
          { compares: [{ key, modRevision: stored?.modRevision ?? 0 }], writes: [write] },
          { signal },
        );
        if (result.succeeded) return;
      } catch (error) {
        if (!MetadataAmbiguousError.isAmbiguous(error)) throw error;
      }
    }
    throw new NereusError(ErrorCode.METADATA_UNAVAILABLE, `ACL record ${key}: too many concurrent changes`, {
      retryable: true,
    });
  }
}
