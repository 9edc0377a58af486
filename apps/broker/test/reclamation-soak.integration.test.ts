// The short CI version of the retention soak (test/support/reclamation-soak.ts; the full one is `pnpm bench:soak`):
// 6 partitions, 8 MiB produced over 10 s with a 5 s retention.ms, on the embedded default, on etcd + s3proxy and
// on BOOKKEEPER_WAL_ONLY; after the window is frozen and the collectors' pass, the stored bytes must be within
// 1.2 × the retained bytes + the stated overhead, and the busiest partition's metadata keys (its reclamation journal
// aside) within 3 per retained commit + 64.
import { describe, expect, test } from "vitest";
import { type SoakStorage, describeSoak, runSoak } from "./support/reclamation-soak.js";

describe.each<SoakStorage>(["embedded", "cluster", "bookkeeper"])("retention soak on %s storage", (storage) => {
  test("stored bytes stay within 1.2 × retained + overhead, metadata keys per partition stay bounded", async () => {
    const figures = await runSoak({
      storage,
      partitions: 6,
      producedBytes: 8 * 1024 * 1024,
      produceSeconds: 10,
      retentionMs: 5_000,
      recordBytes: 16 * 1024,
      graceMs: 500,
      ledgerBytes: 512 * 1024,
    });
    for (const line of describeSoak(figures)) console.log(line);
    expect(figures.retainedBytes).toBeGreaterThan(0);
    expect(figures.retainedBytes).toBeLessThan(figures.producedBytes * 0.8);
    expect(figures.storedBytes).toBeLessThanOrEqual(figures.boundBytes);
    expect(figures.maxStreamKeys).toBeLessThanOrEqual(figures.metadataKeyBound);
  }, 85_000);
});
