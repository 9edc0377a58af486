// Append-pipeline benchmark (`pnpm bench`): appends/s and MB/s through the full StreamStore pipeline with the
// in-memory reference providers — sequential appends on a warm lane, and concurrent callers whose appends group
// commit — plus metadata round trips and head transactions per append. In-memory providers make this the cost of
// the protocol itself (validation, lane, session, intent, CAS, codecs), not of any backend; the etcd variant lives
// in @nereus/metadata (bench/append-on-etcd.ts).
import { GenerationZeroVisibleCoordinator } from "../src/completion/generation-zero-visible-coordinator.js";
import { StableHeadCoordinator } from "../src/completion/stable-head-coordinator.js";
import type { AppendBatch } from "../src/domain/append-types.js";
import type { StorageProfile } from "../src/domain/storage-profile.js";
import { createStreamStore } from "../src/stream-store/create-stream-store.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";
import { MemoryWalProvider } from "../src/testing/memory-wal-provider.js";

interface Scenario {
  readonly name: string;
  readonly profile: StorageProfile;
  readonly appends: number;
  readonly concurrency: number;
  readonly entriesPerAppend: number;
  readonly entryBytes: number;
}

interface Measurement {
  readonly scenario: string;
  readonly appendsPerSecond: number;
  readonly megabytesPerSecond: number;
  readonly roundTripsPerAppend: number;
  readonly headTxnsPerAppend: number;
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: "sequential, 1 x 1 KiB, OBJECT_WAL_SYNC_OBJECT",
    profile: "OBJECT_WAL_SYNC_OBJECT",
    appends: 5_000,
    concurrency: 1,
    entriesPerAppend: 1,
    entryBytes: 1024,
  },
  {
    name: "sequential, 1 x 1 KiB, BOOKKEEPER_WAL_ONLY",
    profile: "BOOKKEEPER_WAL_ONLY",
    appends: 5_000,
    concurrency: 1,
    entriesPerAppend: 1,
    entryBytes: 1024,
  },
  {
    name: "sequential, 16 x 4 KiB, BOOKKEEPER_WAL_ONLY",
    profile: "BOOKKEEPER_WAL_ONLY",
    appends: 2_000,
    concurrency: 1,
    entriesPerAppend: 16,
    entryBytes: 4096,
  },
  {
    name: "64 concurrent callers (group commit), 1 x 1 KiB",
    profile: "OBJECT_WAL_SYNC_OBJECT",
    appends: 20_000,
    concurrency: 64,
    entriesPerAppend: 1,
    entryBytes: 1024,
  },
  {
    name: "64 concurrent callers, group commit off, 1 x 1 KiB",
    profile: "OBJECT_WAL_SYNC_OBJECT",
    appends: 5_000,
    concurrency: 64,
    entriesPerAppend: 1,
    entryBytes: 1024,
  },
];

async function measure(scenario: Scenario, groupCommit: boolean): Promise<Measurement> {
  const metadata = new InMemoryMetadataStore();
  const objectWal = new MemoryWalProvider({ walKind: "OBJECT" });
  const bookkeeperWal = new MemoryWalProvider({ walKind: "BOOKKEEPER" });
  const store = createStreamStore({
    metadata,
    cluster: "bench",
    writerId: "bench-writer",
    walWriters: [objectWal, bookkeeperWal],
    walReaders: [objectWal, bookkeeperWal],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
    groupCommit: groupCommit ? { maxBytes: 4 * 1024 * 1024, maxEntries: 1_024 } : false,
  });
  const { streamId } = await store.createStream(`bench-${scenario.profile}`, { profile: scenario.profile });
  const payload = new Uint8Array(scenario.entryBytes).fill(7);
  const batch: AppendBatch = {
    payloadFormat: "OPAQUE_RECORD_BATCH",
    entries: Array.from({ length: scenario.entriesPerAppend }, () => ({ payload, recordCount: 1 })),
  };
  for (let index = 0; index < 200; index++) await store.append(streamId, batch);
  metadata.stats.reset();
  let remaining = scenario.appends;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: scenario.concurrency }, async () => {
      while (remaining > 0) {
        remaining -= 1;
        await store.append(streamId, batch);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1_000;
  await store.close();
  const bytes = scenario.appends * scenario.entriesPerAppend * scenario.entryBytes;
  return {
    scenario: scenario.name,
    appendsPerSecond: scenario.appends / seconds,
    megabytesPerSecond: bytes / (1024 * 1024) / seconds,
    roundTripsPerAppend: metadata.stats.roundTrips / scenario.appends,
    headTxnsPerAppend: metadata.stats.txns / scenario.appends,
  };
}

const results: Measurement[] = [];
for (const scenario of SCENARIOS) results.push(await measure(scenario, !scenario.name.includes("group commit off")));
console.log("Nereus core append pipeline (in-memory metadata + in-memory WAL), Node", process.version);
console.table(
  results.map((result) => ({
    scenario: result.scenario,
    "appends/s": Math.round(result.appendsPerSecond),
    "MB/s": Number(result.megabytesPerSecond.toFixed(1)),
    "metadata round trips/append": Number(result.roundTripsPerAppend.toFixed(3)),
    "head txns/append": Number(result.headTxnsPerAppend.toFixed(3)),
  })),
);
