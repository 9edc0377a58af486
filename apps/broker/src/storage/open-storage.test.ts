// openStorage on the embedded stores (a real SQLite file and objects directory in a temp dir): which topics' streams
// the materialization mode gives read-optimized generations. "async" (the filesystem default) registers and
// materializes only OBJECT_WAL_ASYNC_OBJECT streams; "all" does both Object WAL profiles.
import type { StorageProfile } from "@nereus/core";
import { afterEach, describe, expect, test } from "vitest";
import { tempDir } from "../../test/support/temp-dirs.js";
import { BrokerConfigSchema, type BrokerConfigInput } from "../config/broker-config.js";
import { PinoBrokerLogger } from "../logging/broker-logger.js";
import { SqliteMetadataStore } from "@nereus/metadata";
import { type BrokerStorage, openStorage, storageReadBuffers } from "./open-storage.js";

const opened: BrokerStorage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((storage) => storage.close()));
});

async function open(storage: BrokerConfigInput["storage"] = {}): Promise<BrokerStorage> {
  const dataDir = tempDir("open-storage");
  const config = BrokerConfigSchema.parse({ dataDir, storage });
  const logger = new PinoBrokerLogger({ level: "error", sink: { write: () => true } });
  const result = await openStorage({ config, writerId: "open-storage-test", logger });
  opened.push(result);
  return result;
}

/** Creates a stream with `profile` and appends two entries of 64 KiB to it. */
async function streamWithData(storage: BrokerStorage, name: string, profile: StorageProfile): Promise<string> {
  const { streamId } = await storage.store.createStream(name, { profile });
  for (let index = 0; index < 2; index++) {
    await storage.store.append(streamId, {
      payloadFormat: "OPAQUE_RECORD_BATCH",
      entries: [{ payload: new Uint8Array(64 * 1024).fill(index + 1), recordCount: 1 }],
    });
  }
  return streamId;
}

async function registeredStreams(storage: BrokerStorage): Promise<string[]> {
  const streams: string[] = [];
  for await (const registration of storage.runtime.registry.scan()) streams.push(registration.streamId);
  return streams.sort();
}

/**
 * Generation tasks the runtime's materialization worker published in all, once it published `expected` of them or
 * 10 s passed. Passes are run here, but the worker's own background loop runs too and may publish first (or hold the
 * claim while a pass of ours runs), so the worker's total is what is counted, not one pass's result.
 */
async function publishedTasks(storage: BrokerStorage, expected: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  while (storage.runtime.worker.stats.tasksPublished < expected && Date.now() < deadline) {
    await storage.runtime.worker.runOnce();
    if (storage.runtime.worker.stats.tasksPublished < expected) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return storage.runtime.worker.stats.tasksPublished;
}

describe("openStorage on the embedded stores", () => {
  test("the default (async) materializes OBJECT_WAL_ASYNC_OBJECT streams only; sync streams are read from their WAL objects", async () => {
    const storage = await open();
    expect(storage.summary).toMatchObject({ materialization: "async", objects: "filesystem" });
    const sync = await streamWithData(storage, "sync", "OBJECT_WAL_SYNC_OBJECT");
    const asyncStream = await streamWithData(storage, "async", "OBJECT_WAL_ASYNC_OBJECT");
    expect(await registeredStreams(storage)).toEqual([asyncStream]);
    expect(await publishedTasks(storage, 1)).toBe(1);
    expect(await storage.runtime.worker.runOnce()).toEqual({ streams: 1, published: 0 });
    for (const streamId of [sync, asyncStream]) {
      const read = await storage.store.read(streamId, 0);
      expect(read.entries.map((entry) => entry.payload[0])).toEqual([1, 2]);
    }
    // The newest segment is read on the event loop.
    const eventLoop = storageReadBuffers(storage).find((pool) => pool.pool === "event_loop");
    expect((eventLoop?.lent ?? 0) + (eventLoop?.own ?? 0)).toBeGreaterThan(0);
  });

  test("the default SQLite file in the locked data directory caches its reads; a file named in the configuration does not", async () => {
    const storage = await open();
    expect(storage.summary).toMatchObject({ metadata: "sqlite", metadataReadCache: "on" });
    const streamId = await streamWithData(storage, "cached", "OBJECT_WAL_SYNC_OBJECT");
    for (let pass = 0; pass < 2; pass++) expect((await storage.store.read(streamId, 0)).entries).toHaveLength(2);
    expect(storage.metadata).toBeInstanceOf(SqliteMetadataStore);
    expect((storage.metadata as SqliteMetadataStore).readCacheStats?.hits).toBeGreaterThan(0);
    const named = await open({ metadata: { kind: "sqlite", path: "named.sqlite" } });
    expect(named.summary).toMatchObject({ metadataReadCache: "off (the metadata file is named in the configuration)" });
    expect((named.metadata as SqliteMetadataStore).readCacheStats).toBeUndefined();
  });

  test('"all" materializes both Object WAL profiles', async () => {
    const storage = await open({ materialization: "all" });
    expect(storage.summary).toMatchObject({ materialization: "all" });
    const streams = [
      await streamWithData(storage, "sync", "OBJECT_WAL_SYNC_OBJECT"),
      await streamWithData(storage, "async", "OBJECT_WAL_ASYNC_OBJECT"),
    ];
    expect(await registeredStreams(storage)).toEqual([...streams].sort());
    expect(await publishedTasks(storage, 2)).toBe(2);
    expect(await storage.runtime.worker.runOnce()).toEqual({ streams: 2, published: 0 });
  });
});
