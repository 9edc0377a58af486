// The cursor conformance suite and history property on the embedded stack: the SQLite metadata store and the
// filesystem object store, one fresh directory per test (a restart opens new clients on the same files). Stream
// entries go to an in-memory WAL shared across restarts: cursors only need the stream's heads and trims.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MemoryWalProvider } from "@nereus/core/testing";
import {
  type CursorConformanceFixture,
  type CursorStoreClients,
  describeCursorConformance,
  describeCursorHistoryProperty,
  memoryWalStreamStore,
} from "@nereus/cursor/testing";
import { createSqliteMetadataStore } from "@nereus/metadata";
import { createFileSystemObjectStore } from "@nereus/object-wal";

async function embeddedFixture(): Promise<CursorConformanceFixture> {
  const directory = await mkdtemp(path.join(tmpdir(), "nereus-cursor-"));
  const cluster = `cursor-${randomBytes(4).toString("hex")}`;
  const wal = new MemoryWalProvider({ walKind: "BOOKKEEPER" });
  const open = async (): Promise<CursorStoreClients> => {
    const metadata = await createSqliteMetadataStore({ path: path.join(directory, "metadata.sqlite") });
    const objects = createFileSystemObjectStore({ root: path.join(directory, "objects") });
    const streams = memoryWalStreamStore(metadata, cluster, wal);
    return {
      metadata,
      objects,
      streams,
      close: async () => {
        await streams.close();
        await objects.close();
        await metadata.close();
      },
    };
  };
  const first = await open();
  return {
    ...first,
    cluster,
    reopen: open,
    cleanup: async () => {
      await first.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

describeCursorConformance("SQLite + filesystem", embeddedFixture);
describeCursorHistoryProperty("SQLite + filesystem", embeddedFixture, { runs: 100, timeoutMs: 300_000 });
