// Issue 4 acceptance of the Object WAL profiles against the embedded stack: the filesystem object store and the
// SQLite metadata store, one fresh directory and database file per test (a restart reopens both).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSqliteMetadataStore } from "@nereus/metadata";
import { createFileSystemObjectStore } from "@nereus/object-wal";
import { describeObjectWalAcceptance } from "@nereus/object-wal/testing";

describeObjectWalAcceptance("filesystem + SQLite", async () => {
  const directory = await mkdtemp(path.join(tmpdir(), "nereus-acceptance-"));
  const open = async () => {
    const metadata = await createSqliteMetadataStore({ path: path.join(directory, "metadata.sqlite") });
    const objectStore = createFileSystemObjectStore({ root: path.join(directory, "objects") });
    return {
      metadata,
      objectStore,
      close: async () => {
        await objectStore.close();
        await metadata.close();
      },
    };
  };
  const first = await open();
  return {
    metadata: first.metadata,
    objectStore: first.objectStore,
    reopen: open,
    cleanup: async () => {
      await first.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
});
