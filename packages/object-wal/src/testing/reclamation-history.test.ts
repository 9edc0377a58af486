// The reclamation history checker in memory: a few dozen seeded histories (the benchmark runs a thousand and more;
// the acceptance package runs a few over etcd + s3proxy).
import { InMemoryMetadataStore, InMemoryObjectStore } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import { ReclamationHistoryTally, runReclamationHistory } from "./reclamation-history.js";

describe("reclamation histories", () => {
  it("every committed offset at or above the trim reads back as acknowledged after every collection step", async () => {
    const tally = new ReclamationHistoryTally();
    for (let seed = 1; seed <= 30; seed++) {
      const metadata = new InMemoryMetadataStore();
      try {
        await runReclamationHistory({ metadata, objectStore: new InMemoryObjectStore() }, { seed }, tally);
      } finally {
        await metadata.close();
      }
    }
    expect(tally.histories).toBe(30);
    // The histories exercised what they are meant to.
    expect(tally.objectsFreed).toBeGreaterThan(0);
    expect(tally.crashedRuns).toBeGreaterThan(0);
    expect(tally.foreignRuns).toBeGreaterThan(0);
    expect(tally.lostDeleteResponses + tally.failedDeletes).toBeGreaterThan(0);
    expect(tally.lostTxnResponses).toBeGreaterThan(0);
    expect(tally.readsInFlight).toBeGreaterThan(0);
    expect(tally.materializations).toBeGreaterThan(0);
    expect(tally.brokerRestarts).toBeGreaterThan(0);
  }, 240_000);
});
