// Storage reclamation of the Object WAL profiles against the embedded stack (filesystem object store + SQLite): the
// randomized history checker of @nereus/object-wal/testing, so deletes go through the segment log's delete records
// and compaction.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSqliteMetadataStore } from "@nereus/metadata";
import { createFileSystemObjectStore } from "@nereus/object-wal";
import { ReclamationHistoryTally, runReclamationHistory } from "@nereus/object-wal/testing";
import { describe, expect, it } from "vitest";

describe("storage reclamation on filesystem + SQLite", () => {
  it("histories with crashes, lost responses and reads in flight lose no acknowledged offset and leave nothing", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "nereus-reclamation-"));
    const metadata = await createSqliteMetadataStore({ path: path.join(directory, "metadata.sqlite") });
    const objectStore = createFileSystemObjectStore({ root: path.join(directory, "objects") });
    const tally = new ReclamationHistoryTally();
    try {
      for (const seed of [21, 22, 23])
        await runReclamationHistory({ metadata, objectStore }, { seed, steps: 40 }, tally);
    } finally {
      await objectStore.close();
      await metadata.close();
      await rm(directory, { recursive: true, force: true });
    }
    expect(tally.histories).toBe(3);
    expect(tally.objectsFreed).toBeGreaterThan(0);
  });
});
