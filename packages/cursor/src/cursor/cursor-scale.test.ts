import { InMemoryMetadataStore, InMemoryObjectStore } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import { cursorFixture } from "./test-fixtures/cursor-fixture.js";

const ENTRIES = 2_000_000;
const ACKS_PER_REQUEST = 1000;

describe("cursor scale smoke", () => {
  it(
    "holds 1,000,000 holes: every other entry of 2,000,000 acked in coalesced batches",
    { timeout: 120_000 },
    async () => {
      // Every request is submitted at once, so the last ones wait in the lane for most of the run: their deadline
      // (which counts the wait) is raised from the default 30 s for slow, shared test machines.
      const fixture = await cursorFixture(
        { metadata: new InMemoryMetadataStore(), objects: new InMemoryObjectStore() },
        { operationTimeoutMs: 120_000 },
      );
      await fixture.createCursor("sub", 0);
      const handle = await fixture.openHandle("sub");
      const requests: Promise<{ alreadyApplied: boolean }>[] = [];
      for (let first = 1; first < ENTRIES; first += 2 * ACKS_PER_REQUEST) {
        const items = Array.from({ length: ACKS_PER_REQUEST }, (_, index) => ({ offset: first + 2 * index }));
        requests.push(handle.individualAck(items));
      }
      const results = await Promise.all(requests);
      expect(results.every((result) => !result.alreadyApplied)).toBe(true);
      const { counters } = fixture;
      expect(counters.casCommits).toBeLessThanOrEqual(Math.ceil(requests.length / 4) + 1);
      expect(counters.snapshotsWritten).toBeGreaterThan(0);
      expect(handle.backlog(ENTRIES)).toBe(ENTRIES / 2);

      const fresh = await fixture.openHandle("sub");
      expect(fresh.state.root).toEqual(handle.state.root);
      expect(fresh.backlog(ENTRIES)).toBe(ENTRIES / 2);
      expect(fresh.firstUnacked()).toBe(0);
      for (let offset = 0; offset < ENTRIES; offset += 9_973) expect(fresh.isAcked(offset)).toBe(offset % 2 === 1);
      expect(fresh.nextUnacked(1_999_001)).toBe(1_999_002);
    },
  );
});
