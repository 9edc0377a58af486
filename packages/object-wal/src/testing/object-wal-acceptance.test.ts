// The acceptance suite in memory (InMemoryMetadataStore + InMemoryObjectStore) and on the filesystem object store;
// the acceptance package runs it against s3proxy + etcd and the filesystem + SQLite.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { InMemoryMetadataStore, InMemoryObjectStore } from "@nereus/core/testing";
import { createFileSystemObjectStore } from "../file-system/file-system-object-store.js";
import { describeObjectWalAcceptance } from "./object-wal-acceptance.js";

describeObjectWalAcceptance(
  "in memory",
  async () => {
    const metadata = new InMemoryMetadataStore();
    const objectStore = new InMemoryObjectStore();
    return { metadata, objectStore, cleanup: () => metadata.close() };
  },
  { concurrentStreams: 300 },
);

describeObjectWalAcceptance(
  "filesystem object store + in-memory metadata",
  async () => {
    const root = await mkdtemp(path.join(tmpdir(), "nereus-owal-acceptance-"));
    const metadata = new InMemoryMetadataStore();
    const objectStore = createFileSystemObjectStore({ root });
    return {
      metadata,
      objectStore,
      reopen: async () => {
        const reopened = createFileSystemObjectStore({ root });
        return { metadata, objectStore: reopened, close: () => reopened.close() };
      },
      cleanup: async () => {
        await objectStore.close();
        await metadata.close();
        await rm(root, { recursive: true, force: true });
      },
    };
  },
  { concurrentStreams: 300 },
);
