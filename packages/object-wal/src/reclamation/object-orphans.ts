// The inventory of the object store: objects that no root names, found by LIST and deleted once they are old
// enough that no upload can still be about to name them. They are what a lost PUT response or an aborted attempt
// leaves: a single-slice object gets its root only in the head transaction that first names it, so an attempt whose
// head transaction never committed leaves its object without a root (a multi-slice object's root is written while it
// is uploaded). The object store gives no creation time, so the age is the time since a sweep of this process first
// saw the object without a root. Once that exceeds `orphanAgeMs`:
//   1. absence proof and fence: a root is created DELETING (writer `orphan-sweep`), comparing the root's absence. A
//      head transaction that would name the object compares the same absence, and a multi-slice upload creates its
//      root only if absent or equal, so after this no reference to the object can ever commit;
//   2. the object is deleted and a HEAD confirms it absent (a lost DELETE response is sent again by the next sweep,
//      which finds the DELETING root of this sweeper and carries on);
//   3. the root is deleted (comparing its revision).
// Only the Object WAL's own key spaces are listed — `{cluster}/wal/v1/` (WAL objects) and `{cluster}/generations/v1/`
// (generation objects) — so objects other components keep in the same store without roots (cursor snapshots) are
// never candidates. Objects with a root are the per-stream collectors' business and are never touched here.
import { ErrorCode, NereusError, type MetadataStore, type ObjectStore, type ReclamationStats } from "@nereus/core";
import { encodeKeyComponent } from "@nereus/core/internal";
import { objectKeyHash } from "../roots/physical-object-keys.js";
import type { PhysicalObjectKind, PhysicalObjectRoot } from "../roots/physical-object-records.js";
import { physicalObjectRootCodec } from "../roots/physical-object-root-codec.js";
import { PhysicalObjectRoots } from "../roots/physical-object-roots.js";

/** The writer id of the roots this sweeper creates (how a later sweep recognises a fence it left). */
const ORPHAN_SWEEPER = "orphan-sweep";
const LIST_PAGE = 1_000;
/** Objects remembered as rootless at most (the oldest sightings are kept). */
const MAX_SIGHTINGS = 1_000_000;

export interface ObjectOrphanSweeperOptions {
  readonly metadata: MetadataStore;
  readonly objectStore: ObjectStore;
  readonly cluster: string;
  /** How long an object must have been seen without a root before it is deleted (default 10 min). */
  readonly orphanAgeMs?: number;
  /** Where deletions are counted (kind `ORPHAN_OBJECT`). */
  readonly stats?: ReclamationStats;
  readonly clock?: () => number;
}

/** What one sweep found and did. */
export interface ObjectOrphanReport {
  readonly objectsListed: number;
  /** Objects without a root seen for the first time (they become deletable `orphanAgeMs` later). */
  readonly orphansSighted: number;
  readonly orphansDeleted: number;
  readonly orphanBytesDeleted: number;
  readonly error?: unknown;
}

/** Deletes objects no root names (see the module comment). One instance per process; sweeps never overlap. */
export class ObjectOrphanSweeper {
  readonly #metadata: MetadataStore;
  readonly #objects: ObjectStore;
  readonly #roots: PhysicalObjectRoots;
  /** The key spaces listed, with the kind of object each holds. */
  readonly #spaces: readonly { readonly prefix: string; readonly kind: PhysicalObjectKind }[];
  readonly #orphanAgeMs: number;
  readonly #stats: ReclamationStats | undefined;
  readonly #clock: () => number;
  /** Object key → when a sweep first saw it without a root. */
  readonly #sighted = new Map<string, number>();
  #running: Promise<ObjectOrphanReport> | undefined;

  constructor(options: ObjectOrphanSweeperOptions) {
    const orphanAgeMs = options.orphanAgeMs ?? 600_000;
    if (!Number.isSafeInteger(orphanAgeMs) || orphanAgeMs < 0)
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, "orphanAgeMs must be a non-negative integer");
    this.#metadata = options.metadata;
    this.#objects = options.objectStore;
    this.#roots = new PhysicalObjectRoots(options.cluster);
    const cluster = encodeKeyComponent(options.cluster);
    this.#spaces = [
      { prefix: `${cluster}/wal/v1/`, kind: "OBJECT_WAL" },
      { prefix: `${cluster}/generations/v1/`, kind: "STREAM_GENERATION" },
    ];
    this.#orphanAgeMs = orphanAgeMs;
    this.#stats = options.stats;
    this.#clock = options.clock ?? Date.now;
  }

  /** One sweep (joining one in flight). Never throws: a failure ends the sweep and is in the report. */
  sweep(signal?: AbortSignal): Promise<ObjectOrphanReport> {
    this.#running ??= this.#sweep(signal).finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #sweep(signal: AbortSignal | undefined): Promise<ObjectOrphanReport> {
    const tally = { objectsListed: 0, orphansSighted: 0, orphansDeleted: 0, orphanBytesDeleted: 0 };
    const listed = new Set<string>();
    try {
      for (const space of this.#spaces) {
        let continuationToken: string | undefined;
        do {
          const page = await this.#objects.list(space.prefix, {
            limit: LIST_PAGE,
            ...(continuationToken === undefined ? {} : { continuationToken }),
            ...(signal === undefined ? {} : { signal }),
          });
          for (const item of page.items) {
            tally.objectsListed += 1;
            listed.add(item.key);
            await this.#visit(item.key, item.size, space.kind, tally, signal);
          }
          continuationToken = page.continuationToken;
        } while (continuationToken !== undefined);
      }
      for (const key of this.#sighted.keys()) if (!listed.has(key)) this.#sighted.delete(key);
      return tally;
    } catch (error) {
      return { ...tally, error };
    }
  }

  async #visit(
    objectKey: string,
    size: number,
    kind: PhysicalObjectKind,
    tally: { orphansSighted: number; orphansDeleted: number; orphanBytesDeleted: number },
    signal: AbortSignal | undefined,
  ): Promise<void> {
    let root = await this.#roots.load(this.#metadata, objectKey, signal);
    if (root !== undefined && !(root.root.writerId === ORPHAN_SWEEPER && root.root.lifecycle === "DELETING")) {
      this.#sighted.delete(objectKey);
      return;
    }
    const now = this.#clock();
    if (root === undefined) {
      const first = this.#sighted.get(objectKey);
      if (first === undefined) {
        if (this.#sighted.size < MAX_SIGHTINGS) this.#sighted.set(objectKey, now);
        tally.orphansSighted += 1;
        return;
      }
      if (now < first + this.#orphanAgeMs) return;
      root = await this.#fence(objectKey, size, kind, first, signal);
      if (root === undefined) return;
    }
    await this.#objects.deleteMany([objectKey], signal === undefined ? {} : { signal });
    if ((await this.#objects.head(objectKey, signal === undefined ? {} : { signal })) !== undefined) {
      throw new NereusError(
        ErrorCode.OBJECT_UPLOAD_FAILED,
        `orphan object ${objectKey} is still present after its delete; the next sweep deletes it again`,
        { retryable: true },
      );
    }
    const rootKey = this.#roots.rootKey(objectKey);
    await this.#metadata.txn(
      { compares: [{ key: rootKey, modRevision: root.revision }], writes: [{ type: "delete", key: rootKey }] },
      signal === undefined ? {} : { signal },
    );
    this.#sighted.delete(objectKey);
    tally.orphansDeleted += 1;
    tally.orphanBytesDeleted += size;
    this.#stats?.freed("ORPHAN_OBJECT", size);
  }

  /** Creates the DELETING root of an orphan if no root exists; the stored root, or undefined when one appeared. */
  async #fence(
    objectKey: string,
    size: number,
    kind: PhysicalObjectKind,
    firstSeen: number,
    signal: AbortSignal | undefined,
  ): Promise<{ readonly root: PhysicalObjectRoot; readonly revision: number } | undefined> {
    const length = Math.max(1, size);
    const root: PhysicalObjectRoot = {
      objectKey,
      objectKeyHash: objectKeyHash(objectKey),
      objectId: `orphan-${objectKeyHash(objectKey).slice(0, 16)}`,
      kind,
      lifecycle: "DELETING",
      lifecycleEpoch: 1,
      writerId: ORPHAN_SWEEPER,
      processRunId: ORPHAN_SWEEPER,
      createdAtMillis: firstSeen,
      orphanNotBeforeMillis: firstSeen + this.#orphanAgeMs,
      objectLength: length,
      storageChecksum: 0,
      formatMajor: 1,
      formatMinor: 0,
      sliceCount: 1,
      manifestOffset: 0,
      manifestLength: 1,
      manifestChecksum: 0,
    };
    const rootKey = this.#roots.rootKey(objectKey);
    const result = await this.#metadata.txn(
      {
        compares: [{ key: rootKey, modRevision: 0 }],
        writes: [{ type: "put", key: rootKey, value: physicalObjectRootCodec.encode(root) }],
      },
      signal === undefined ? {} : { signal },
    );
    if (!result.succeeded) {
      this.#sighted.delete(objectKey);
      return undefined;
    }
    return { root, revision: result.revision };
  }
}
