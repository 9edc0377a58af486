// The in-memory cursor fixture: core's in-memory metadata and object stores and a StreamStore over them that
// writes its entries to an in-memory WAL. A reopen hands out the same stores (they hold the data) and a new
// StreamStore sharing the WAL, so it models a restarted process.
import { randomBytes } from "node:crypto";
import {
  GenerationZeroVisibleCoordinator,
  type MetadataStore,
  StableHeadCoordinator,
  type StreamStore,
  createStreamStore,
} from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import type { CursorConformanceFixture, CursorStoreClients } from "./cursor-conformance-fixture.js";

/**
 * A StreamStore over `metadata` for `cluster` whose entries go to `wal` (an in-memory BookKeeper-style WAL: the
 * streams must use the `BOOKKEEPER_WAL_ONLY` profile). Share `wal` between stores that model one durable stream
 * set across restarts.
 */
export function memoryWalStreamStore(
  metadata: MetadataStore,
  cluster: string,
  wal: MemoryWalProvider = new MemoryWalProvider({ walKind: "BOOKKEEPER" }),
): StreamStore {
  return createStreamStore({
    metadata,
    cluster,
    writerId: `cursor-conformance-${randomBytes(4).toString("hex")}`,
    walWriters: [wal],
    walReaders: [wal],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
  });
}

/** A fresh in-memory fixture (one per test). */
export function memoryCursorFixture(): Promise<CursorConformanceFixture> {
  const metadata = new InMemoryMetadataStore();
  const objects = new InMemoryObjectStore();
  const wal = new MemoryWalProvider({ walKind: "BOOKKEEPER" });
  const cluster = `cursor-${randomBytes(4).toString("hex")}`;
  const opened = new Set<StreamStore>();
  const clients = (): CursorStoreClients => {
    const streams = memoryWalStreamStore(metadata, cluster, wal);
    opened.add(streams);
    const close = (): Promise<void> => {
      opened.delete(streams);
      return streams.close();
    };
    return { metadata, objects, streams, close };
  };
  const first = clients();
  return Promise.resolve({
    ...first,
    cluster,
    reopen: () => Promise.resolve(clients()),
    async cleanup() {
      await Promise.all([...opened].map((streams) => streams.close()));
      await metadata.close();
      await objects.close();
    },
  });
}
