// Test fixture of the stream layer: one stream in a real core StreamStore over in-memory stores, cursor metadata
// behind a fault-injecting wrapper of the same metadata store, a stream access whose trim can be held or failed,
// direct reads of the stored cursor records, the retention invariant as an assertion, and crash injection (from a
// chosen cursor transaction on, every cursor metadata call fails, as if the process died there). The in-memory
// providers come from the test (`@nereus/core/testing` is for tests only). Test-only.
import {
  type AppendBatch,
  GenerationZeroVisibleCoordinator,
  type MetadataStore,
  type ObjectStore,
  StableHeadCoordinator,
  type StreamHead,
  type StreamStore,
  type WalReader,
  type WalWriter,
  createStreamStore,
} from "@nereus/core";
import { expect } from "vitest";
import type { CursorRetentionRecord, CursorStateRecord, CursorOwnerRecord } from "../../domain/cursor-records.js";
import { cursorOwnerKey, cursorRetentionKey, cursorRootsPrefix } from "../../keys/cursor-keys.js";
import { cursorOwnerCodec } from "../../records/cursor-owner-codec.js";
import { cursorRetentionCodec } from "../../records/cursor-retention-codec.js";
import { cursorStateCodec } from "../../records/cursor-state-codec.js";
import type { CursorLimits, CursorStreamAccess } from "../../store/cursor-store-options.js";
import { CursorStore } from "../cursor-store.js";
import type { StreamCursors } from "../stream-cursors.js";

type FaultOp = "get" | "getMany" | "scan" | "txn";
type FaultMode = "fail-before-apply" | "apply-then-lose-response";

/** The part of core's metadata fault rules the fixture arms (`MetadataFaults`). */
interface MetadataFaultControl {
  add(rule: { op: FaultOp; mode: FaultMode; times?: number; when?: (request: unknown) => boolean }): void;
  clear(): void;
}

/** The in-memory providers a fixture runs on; tests build them from `@nereus/core/testing`. */
export interface FixtureProviders {
  newMetadataStore(): MetadataStore;
  /** A wrapper of `inner` whose calls can be failed (`FaultInjectingMetadataStore`). */
  withFaults(inner: MetadataStore): MetadataStore & { readonly faults: MetadataFaultControl };
  newObjectStore(): ObjectStore;
  /** One in-memory OBJECT WAL (`MemoryWalProvider`). */
  newObjectWal(): WalWriter & WalReader;
}

export const CLUSTER = "stream-test";

/** A stream access that forwards to the StreamStore, with hooks around `trim`. */
class HookedStreamAccess implements CursorStreamAccess {
  readonly #streams: StreamStore;
  /** Runs before every trim is forwarded (throw to fail the trim before it applies). */
  beforeTrim: (() => Promise<void>) | undefined;
  /** Runs after a trim applied, before its answer returns (throw to lose the answer). */
  afterTrim: (() => Promise<void>) | undefined;
  /** Rewrites heads on their way back (to simulate a trim by someone else). */
  mapHead: ((head: StreamHead) => StreamHead) | undefined;
  trims = 0;

  constructor(streams: StreamStore) {
    this.#streams = streams;
  }

  async getHead(streamId: string, options?: { readonly signal?: AbortSignal }): Promise<StreamHead> {
    const head = await this.#streams.getHead(streamId, options);
    return this.mapHead === undefined ? head : this.mapHead(head);
  }

  async trim(streamId: string, offset: number, options?: { readonly signal?: AbortSignal }): Promise<StreamHead> {
    this.trims += 1;
    await this.beforeTrim?.();
    const head = await this.#streams.trim(streamId, offset, options);
    await this.afterTrim?.();
    return head;
  }
}

export interface StreamFixture {
  readonly inner: MetadataStore;
  /** What every cursor store of the fixture uses as its metadata store (its faults can be armed). */
  readonly metadata: MetadataStore & { readonly faults: MetadataFaultControl };
  readonly objects: ObjectStore;
  readonly streams: StreamStore;
  /** The stream access of every cursor store of the fixture, with hooks around `trim` and on heads. */
  readonly access: CursorStreamAccess & Pick<HookedStreamAccess, "beforeTrim" | "afterTrim" | "mapHead" | "trims">;
  readonly streamId: string;
  /** A new cursor store ("process") over the fixture's stores. */
  cursorStore(limits?: Partial<CursorLimits>): CursorStore;
  /** Opens the stream with a new cursor store. */
  open(limits?: Partial<CursorLimits>): Promise<StreamCursors>;
  /** Appends `count` entries; returns the committed end. */
  append(count: number): Promise<number>;
  head(): Promise<StreamHead>;
  storedOwner(): Promise<CursorOwnerRecord | undefined>;
  storedRetention(): Promise<CursorRetentionRecord | undefined>;
  storedRoots(): Promise<CursorStateRecord[]>;
  storedRoot(name: string): Promise<CursorStateRecord | undefined>;
  /** Asserts the retention record is ACTIVE and trim <= lastCompleted <= floor <= markDelete(ACTIVE) <= end. */
  expectRetentionInvariant(): Promise<CursorRetentionRecord>;
  /**
   * From the `txnNumber`th cursor transaction on (counted from now), every cursor metadata call fails. `before`:
   * that transaction does not apply; `after`: it applies and its answer is lost.
   */
  crashAtTxn(txnNumber: number, when: "before" | "after"): void;
  /** Every cursor metadata call fails from now on. */
  crashNow(): void;
  /** Ends the crash: the stores answer again (for the next "process"). */
  recover(): void;
}

const FAILING_OPS: readonly FaultOp[] = ["get", "getMany", "scan", "txn"];

/** A fixture with one stream ("orders", OBJECT_WAL) and `entries` entries appended. */
export async function streamFixture(providers: FixtureProviders, entries = 0): Promise<StreamFixture> {
  const inner = providers.newMetadataStore();
  const metadata = providers.withFaults(inner);
  const objects = providers.newObjectStore();
  const wal = providers.newObjectWal();
  const streams = createStreamStore({
    metadata: inner,
    cluster: CLUSTER,
    writerId: "stream-fixture",
    walWriters: [wal],
    walReaders: [wal],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
  });
  const access = new HookedStreamAccess(streams);
  const { streamId } = await streams.createStream("orders", { profile: "OBJECT_WAL" });
  let clock = 1_000_000;
  let crashed = false;

  const cursorStore = (limits: Partial<CursorLimits> = {}): CursorStore =>
    new CursorStore({ metadata, objects, streams: access, cluster: CLUSTER, limits, now: () => (clock += 1) });
  const get = async <T>(key: string, decode: (bytes: Uint8Array, key: string) => T): Promise<T | undefined> => {
    const stored = await inner.get(key);
    return stored === undefined ? undefined : decode(stored.value, key);
  };
  const storedRoots = async (): Promise<CursorStateRecord[]> => {
    const page = await inner.scan(cursorRootsPrefix(CLUSTER, streamId), { limit: 100_000 });
    return page.items.map((item) => cursorStateCodec.decode(item.value, item.key));
  };
  const failAll = (): void => {
    for (const op of FAILING_OPS) {
      metadata.faults.add({ op, mode: "fail-before-apply", times: Number.POSITIVE_INFINITY, when: () => crashed });
    }
  };

  const fixture: StreamFixture = {
    inner,
    metadata,
    objects,
    streams,
    access,
    streamId,
    cursorStore,
    open: (limits) => cursorStore(limits).openStream(streamId),
    async append(count) {
      if (count > 0) await streams.append(streamId, opaqueBatch(count));
      return (await streams.getHead(streamId)).committedEndOffset;
    },
    head: () => streams.getHead(streamId),
    storedOwner: () => get(cursorOwnerKey(CLUSTER, streamId), (bytes, key) => cursorOwnerCodec.decode(bytes, key)),
    storedRetention: () =>
      get(cursorRetentionKey(CLUSTER, streamId), (bytes, key) => cursorRetentionCodec.decode(bytes, key)),
    storedRoots,
    async storedRoot(name) {
      return (await storedRoots()).find((root) => root.cursorName === name);
    },
    async expectRetentionInvariant() {
      const head = await streams.getHead(streamId);
      const retention = await fixture.storedRetention();
      expect(retention).toBeDefined();
      if (retention === undefined) throw new Error("no retention record");
      expect(retention.lifecycle).toBe("ACTIVE");
      expect(head.trimOffset).toBeLessThanOrEqual(retention.lastCompletedTrimOffset);
      expect(retention.lastCompletedTrimOffset).toBeLessThanOrEqual(retention.protectedFloorOffset);
      for (const root of await storedRoots()) {
        if (root.lifecycle !== "ACTIVE") continue;
        expect(retention.protectedFloorOffset, `floor <= markDelete of ${root.cursorName}`).toBeLessThanOrEqual(
          root.markDeleteOffset,
        );
        expect(root.markDeleteOffset).toBeLessThanOrEqual(head.committedEndOffset);
      }
      return retention;
    },
    crashAtTxn(txnNumber, when) {
      let seen = 0;
      const mode: FaultMode = when === "before" ? "fail-before-apply" : "apply-then-lose-response";
      metadata.faults.add({
        op: "txn",
        mode,
        when: () => {
          seen += 1;
          if (seen !== txnNumber) return false;
          crashed = true;
          return true;
        },
      });
      failAll();
    },
    crashNow() {
      crashed = true;
      failAll();
    },
    recover() {
      crashed = false;
      metadata.faults.clear();
    },
  };
  if (entries > 0) await fixture.append(entries);
  return fixture;
}

function opaqueBatch(count: number): AppendBatch {
  const entries = Array.from({ length: count }, (_, index) => ({
    payload: new TextEncoder().encode(`entry-${String(index)}`),
    recordCount: 1,
  }));
  return { payloadFormat: "OPAQUE_RECORD_BATCH", entries };
}
