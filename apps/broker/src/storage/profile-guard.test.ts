import {
  ErrorCode,
  GenerationZeroVisibleCoordinator,
  NereusError,
  StableHeadCoordinator,
  type StreamStore,
  createStreamStore,
  streamIdFromName,
} from "@nereus/core";
import { InMemoryMetadataStore, MemoryWalProvider } from "@nereus/core/testing";
import { afterEach, describe, expect, test } from "vitest";
import { BookKeeperStreamMarks } from "./bookkeeper-stream-marks.js";
import { guardProfiles } from "./profile-guard.js";

const CLUSTER = "guard";
const MARKS_PREFIX = "/nereus/clusters/guard/broker/v1/bookkeeper-streams/";
const opened: StreamStore[] = [];

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

function stack(clock: () => number = Date.now) {
  const metadata = new InMemoryMetadataStore();
  const objects = new MemoryWalProvider({ walKind: "OBJECT" });
  const bookkeeper = new MemoryWalProvider({ walKind: "BOOKKEEPER" });
  const store = createStreamStore({
    metadata,
    cluster: CLUSTER,
    writerId: "w1",
    walWriters: [objects, bookkeeper],
    walReaders: [objects, bookkeeper],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
  });
  opened.push(store);
  const marks = new BookKeeperStreamMarks(metadata, CLUSTER, clock);
  return { metadata, store, marks };
}

async function markKeys(metadata: InMemoryMetadataStore): Promise<number> {
  return (await metadata.scan(MARKS_PREFIX, { limit: 100 })).items.length;
}

describe("guardProfiles", () => {
  test("without BookKeeper a BookKeeper profile is refused before anything is written; object profiles pass", async () => {
    const { metadata, store, marks } = stack();
    const guarded = guardProfiles(store, { bookkeeper: false, materialization: true }, marks);
    const refused = await guarded
      .createStream("bk-0", { profile: "BOOKKEEPER_WAL_ONLY" })
      .catch((error: unknown) => error);
    expect(NereusError.hasCode(refused, ErrorCode.UNSUPPORTED_STORAGE_PROFILE)).toBe(true);
    expect((refused as Error).message).toMatch(/^BOOKKEEPER_WAL_ONLY needs BookKeeper, and this broker has none/);
    await expect(store.getHead(streamIdFromName("bk-0"))).rejects.toMatchObject({ code: ErrorCode.STREAM_NOT_FOUND });
    expect(await markKeys(metadata)).toBe(0);
    const created = await guarded.createStream("obj-0", { profile: "OBJECT_WAL" });
    expect(created.head.profile).toBe("OBJECT_WAL_SYNC_OBJECT");
    expect(await markKeys(metadata)).toBe(0);
  });

  test("BOOKKEEPER_WAL_SYNC_OBJECT is refused without materialization", async () => {
    const { store, marks } = stack();
    const guarded = guardProfiles(store, { bookkeeper: true, materialization: false }, marks);
    await expect(guarded.createStream("s", { profile: "BOOKKEEPER_WAL_SYNC_OBJECT" })).rejects.toThrow(
      /background materialization/,
    );
    expect((await guarded.createStream("a", { profile: "BOOKKEEPER_WAL_ASYNC_OBJECT" })).created).toBe(true);
  });

  test("with BookKeeper a BookKeeper stream is marked, once, and appends; other members pass through", async () => {
    const { metadata, store, marks } = stack();
    const guarded = guardProfiles(store, { bookkeeper: true, materialization: true }, marks);
    const { streamId } = await guarded.createStream("bk-1", { profile: "BOOKKEEPER_WAL_ONLY" });
    await guarded.createStream("bk-1", { profile: "BOOKKEEPER_WAL_ONLY" });
    expect(await markKeys(metadata)).toBe(1);
    const result = await guarded.append(streamId, {
      payloadFormat: "OPAQUE_RECORD_BATCH",
      entries: [{ payload: new Uint8Array([1, 2, 3]), recordCount: 1 }],
    });
    expect(result.readTarget.type).toBe("BOOKKEEPER_ENTRY_RANGE");
    expect((await guarded.read(streamId, 0)).entries[0]?.payload).toEqual(new Uint8Array([1, 2, 3]));
    expect(await marks.firstLiveStream(guarded)).toMatchObject({ streamName: "bk-1", profile: "BOOKKEEPER_WAL_ONLY" });
  });
});

describe("BookKeeperStreamMarks.firstLiveStream", () => {
  test("finds a live stream; drops marks of deleted streams, and of absent ones once abandoned", async () => {
    let now = 1_000_000;
    const { metadata, store, marks } = stack(() => now);
    const guarded = guardProfiles(store, { bookkeeper: true, materialization: true }, marks);
    expect(await marks.firstLiveStream(store)).toBeUndefined();
    const { streamId } = await guarded.createStream("doomed", { profile: "BOOKKEEPER_WAL_ONLY" });
    await marks.mark(streamIdFromName("never-created"), "never-created");
    await store.delete(streamId);
    expect(await markKeys(metadata)).toBe(2);
    expect(await marks.firstLiveStream(store)).toBeUndefined();
    expect(await markKeys(metadata)).toBe(1);
    now += 10 * 60 * 1000;
    expect(await marks.firstLiveStream(store)).toBeUndefined();
    expect(await markKeys(metadata)).toBe(0);
    await guarded.createStream("alive", { profile: "BOOKKEEPER_WAL_ASYNC_OBJECT" });
    expect((await marks.firstLiveStream(store))?.streamName).toBe("alive");
  });
});
