// One stream in a real core StreamStore, its cursors from a real CursorStore, an entry source over it, and a manual
// clock: what subscription tests run on. The stores come from the test (core's in-memory ones; `@nereus/core/testing`
// is for test files only). `reopen` opens the stream's cursors again as a restarted broker would (the earlier open
// is fenced). Test-only.
import {
  GenerationZeroVisibleCoordinator,
  type MetadataStore,
  type ObjectStore,
  StableHeadCoordinator,
  type StreamStore,
  type WalReader,
  type WalWriter,
  createStreamStore,
} from "@nereus/core";
import { type StreamCursors, createCursorStore } from "@nereus/cursor";
import { openDurableSubscription, openReaderSubscription, type InitialPosition } from "../open-subscription.js";
import type { Subscription } from "../subscription.js";
import type { SubscriptionOptions } from "../subscription-options.js";
import { ManualClock } from "./manual-clock.js";
import { StreamEntrySource } from "./stream-entry-source.js";

const CLUSTER = "subscription-test";

export interface SubscriptionFixture {
  readonly streams: StreamStore;
  readonly streamId: string;
  readonly source: StreamEntrySource;
  readonly clock: ManualClock;
  /** The stream's cursors as this "process" opened them. */
  cursors: StreamCursors;
  /** Opens (creating if needed) the durable subscription `name`. */
  durable(name: string, initialPosition?: InitialPosition, options?: SubscriptionOptions): Promise<Subscription>;
  /** Opens a reader from `start`. */
  reader(start: number | InitialPosition, options?: SubscriptionOptions): Promise<Subscription>;
  /** Opens the stream's cursors again with a new cursor store, as a restarted broker would. */
  reopen(): Promise<StreamCursors>;
}

/** Fresh stores for one fixture: tests build them from `@nereus/core/testing`. */
export interface FixtureStores {
  readonly metadata: MetadataStore;
  readonly objects: ObjectStore;
  /** One OBJECT WAL (`MemoryWalProvider`). */
  readonly wal: WalWriter & WalReader;
}

export async function subscriptionFixture(stores: FixtureStores): Promise<SubscriptionFixture> {
  const { metadata, objects, wal } = stores;
  const streams = createStreamStore({
    metadata,
    cluster: CLUSTER,
    writerId: "subscription-fixture",
    walWriters: [wal],
    walReaders: [wal],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
  });
  const { streamId } = await streams.createStream("topic", { profile: "OBJECT_WAL" });
  const clock = new ManualClock();
  const source = new StreamEntrySource(streams, streamId);
  const openCursors = (): Promise<StreamCursors> =>
    createCursorStore({ metadata, objects, streams, cluster: CLUSTER }).openStream(streamId);
  const fixture: SubscriptionFixture = {
    streams,
    streamId,
    source,
    clock,
    cursors: await openCursors(),
    durable: (name, initialPosition = "earliest", options = {}) =>
      openDurableSubscription({
        cursors: fixture.cursors,
        name,
        source,
        initialPosition,
        options: { clock, ...options },
      }),
    reader: (start, options = {}) =>
      openReaderSubscription({ name: "reader", source, start, options: { clock, ...options } }),
    async reopen() {
      fixture.cursors = await openCursors();
      return fixture.cursors;
    },
  };
  return fixture;
}
