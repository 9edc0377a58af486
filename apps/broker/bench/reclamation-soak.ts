// The retention soak of storage reclamation (test/support/reclamation-soak.ts): P partitions, M MiB produced at a
// steady rate over S seconds with a 1-minute retention.ms, on each storage of NEREUS_SOAK_STORAGE; after the window
// is frozen and the collectors' pass, prints bytes stored against bytes retained (bound: 1.2 × retained + the stated
// overhead) and metadata keys per partition (bound: 3 per retained commit + 64). Exits non-zero when a bound is
// exceeded. The cluster and BookKeeper storages need the test services (NEREUS_SERVICES_FILE).
// Environment: NEREUS_SOAK_PARTITIONS (P, default 100), NEREUS_SOAK_MIB (M, default 2,048), NEREUS_SOAK_SECONDS (S,
// default 240), NEREUS_SOAK_RETENTION_MS (default 60,000), NEREUS_SOAK_RECORD_BYTES (default 16,384),
// NEREUS_SOAK_GRACE_MS (the collectors' grace and minimum age, default 5,000), NEREUS_SOAK_LEDGER_MIB (ledger
// rollover, default 4), NEREUS_SOAK_STORAGE (comma-separated, default "embedded,cluster,bookkeeper").
import { type SoakStorage, describeSoak, runSoak } from "../test/support/reclamation-soak.js";

function setting(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text.replaceAll("_", ""));
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${text}`);
  return value;
}

const storages = (process.env["NEREUS_SOAK_STORAGE"] ?? "embedded,cluster,bookkeeper").split(",") as SoakStorage[];
let exceeded = false;
for (const storage of storages) {
  console.log(`retention soak on ${storage}`);
  const figures = await runSoak({
    storage,
    partitions: setting("NEREUS_SOAK_PARTITIONS", 100),
    producedBytes: setting("NEREUS_SOAK_MIB", 2_048) * 1024 * 1024,
    produceSeconds: setting("NEREUS_SOAK_SECONDS", 240),
    retentionMs: setting("NEREUS_SOAK_RETENTION_MS", 60_000),
    recordBytes: setting("NEREUS_SOAK_RECORD_BYTES", 16_384),
    graceMs: setting("NEREUS_SOAK_GRACE_MS", 5_000),
    ledgerBytes: setting("NEREUS_SOAK_LEDGER_MIB", 4) * 1024 * 1024,
    log: (line) => console.log(line),
  });
  for (const line of describeSoak(figures)) console.log(line);
  exceeded ||= figures.storedBytes > figures.boundBytes || figures.maxStreamKeys > figures.metadataKeyBound;
}
process.exitCode = exceeded ? 1 : 0;
