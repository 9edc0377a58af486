// The working set of one conformance test: the fixture, the streams it created, the cursor stores and reopened
// clients it opened (all closed at the end), and the helpers every scenario uses: fresh streams with entries,
// opening and restarting a stream's cursors, and the stored retention invariant.
import { randomBytes } from "node:crypto";
import { opaqueBatch } from "@nereus/core/testing";
import { expect } from "vitest";
import { type BatchBits, batchBitsAcking } from "../ack-state/batch-bits.js";
import type { CursorHandle } from "../cursor/cursor-handle.js";
import type { CursorLimits, CursorStreamAccess } from "../store/cursor-store-options.js";
import { CursorStore } from "../stream/cursor-store.js";
import type { StreamCursors } from "../stream/stream-cursors.js";
import type { CursorConformanceFixture, CursorStoreClients } from "./cursor-conformance-fixture.js";
import { retentionInvariantProblem } from "./retention-invariant.js";
import { SUMMARY_BATCH_SIZE, type StreamSummary, summarizeStream } from "./stream-summary.js";

/** Stores a cursor store is built over (a fixture's clients, reopened ones, or a simulated process's). */
export interface CursorStoreWiring {
  readonly metadata: CursorStoreClients["metadata"];
  readonly objects: CursorStoreClients["objects"];
  readonly streams: CursorStreamAccess;
}

/** Bits of a batch of `SUMMARY_BATCH_SIZE` with `indexes` acknowledged. */
export function acking(...indexes: number[]): BatchBits {
  return batchBitsAcking(SUMMARY_BATCH_SIZE, indexes);
}

export class ConformanceRun {
  readonly fixture: CursorConformanceFixture;
  readonly #stores: CursorStore[] = [];
  readonly #clients: CursorStoreClients[] = [];

  constructor(fixture: CursorConformanceFixture) {
    this.fixture = fixture;
  }

  /** Creates a stream with a unique name and `entries` committed entries; returns its id. */
  async newStream(label: string, entries: number): Promise<string> {
    const name = `cursor-conformance-${label}-${randomBytes(6).toString("hex")}`;
    const profile = this.fixture.streamProfile ?? "BOOKKEEPER_WAL_ONLY";
    const { streamId } = await this.fixture.streams.createStream(name, { profile });
    if (entries > 0) await this.append(streamId, entries);
    return streamId;
  }

  /** Appends `count` entries; returns the committed end. */
  async append(streamId: string, count: number): Promise<number> {
    const texts = Array.from({ length: count }, (_, index) => `entry-${String(index)}`);
    const result = await this.fixture.streams.append(streamId, opaqueBatch(...texts));
    return result.endOffset;
  }

  /** A cursor store over `wiring` (default the fixture's first clients), closed at the end of the test. */
  store(limits: Partial<CursorLimits> = {}, wiring: CursorStoreWiring = this.fixture): CursorStore {
    const store = new CursorStore({
      metadata: wiring.metadata,
      objects: wiring.objects,
      streams: wiring.streams,
      cluster: this.fixture.cluster,
      limits,
    });
    this.#stores.push(store);
    return store;
  }

  /** Opens `streamId` for cursor writes on a new cursor store. */
  open(
    streamId: string,
    limits: Partial<CursorLimits> = {},
    wiring: CursorStoreWiring = this.fixture,
  ): Promise<StreamCursors> {
    return this.store(limits, wiring).openStream(streamId);
  }

  /** Fresh clients on the same data (closed at the end of the test). */
  async reopenClients(): Promise<CursorStoreClients> {
    const clients = await this.fixture.reopen();
    this.#clients.push(clients);
    return clients;
  }

  /** A restart: closes every cursor store of the test, then opens `streamId` on fresh clients. */
  async restart(streamId: string, limits: Partial<CursorLimits> = {}): Promise<StreamCursors> {
    await this.closeStores();
    return this.open(streamId, limits, await this.reopenClients());
  }

  /** The handle of ACTIVE cursor `name` (fails the test when there is none). */
  handle(cursors: StreamCursors, name: string): CursorHandle {
    const handle = cursors.get(name);
    expect(handle, `cursor ${name} is ACTIVE`).toBeDefined();
    return handle as CursorHandle;
  }

  /** Asserts the retention invariant on the stored records of `streamId`. */
  async expectInvariant(streamId: string): Promise<void> {
    expect(await retentionInvariantProblem(this.fixture, this.fixture.cluster, streamId)).toBeUndefined();
  }

  summary(cursors: StreamCursors): Promise<StreamSummary> {
    return summarizeStream(cursors, this.fixture.streams);
  }

  async closeStores(): Promise<void> {
    const stores = this.#stores.splice(0);
    await Promise.all(stores.map((store) => store.close().catch(() => undefined)));
  }

  /** Closes everything the test opened and cleans the fixture up. */
  async close(): Promise<void> {
    await this.closeStores();
    for (const clients of this.#clients.splice(0)) await clients.close();
    await this.fixture.cleanup();
  }
}
