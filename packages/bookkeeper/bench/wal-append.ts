// BookKeeper WAL append benchmark: append latency through the full StreamStore pipeline (lane, session, WAL
// persist with ack quorum on every entry, protection, head transaction, completion) per BookKeeper profile, as a
// ratio to the raw ledger add of the same bytes measured right before it in the same run on the same bookies
// (E=3 Qw=2 Qa=2, CRC32C). Metadata is core's InMemoryMetadataStore (bookkeeper may not import @nereus/metadata),
// so the ratio is the BookKeeper-side cost of the protocol: with etcd add one Txn round trip per append.
// Rows: one 1 KiB entry per append (vs one add); 16 x 1 KiB per append (vs 16 adds in flight); 64 concurrent
// callers with group commit (appends/s vs adds/s with a window of 64). Runs after the Java comparison in
// bench/run.ts, or alone: `tsx --conditions=@nereus/source bench/wal-append.ts`.
import { randomBytes } from "node:crypto";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { createStreamStore, type AppendOptions, type StorageProfile } from "@nereus/core";
import { InMemoryMetadataStore } from "@nereus/core/testing";
import { SERVICES_FILE_ENV, loadServices, startServices, type RunningServices } from "@nereus/test-services";
import { createBookKeeperClient, type BookKeeperClient } from "../src/client/bookkeeper-client.js";
import { createBookKeeperWalRuntime } from "../src/wal/create-bookkeeper-wal-runtime.js";
import { ENTRY_FRAME_OVERHEAD } from "../src/wal/entry-frame.js";

const ENTRY_BYTES = 1024;
const QUORUMS = { ensembleSize: 3, writeQuorumSize: 2, ackQuorumSize: 2 } as const;

interface Latency {
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
}

interface Row {
  readonly name: string;
  readonly raw: Latency;
  readonly append: Latency;
  readonly addsPerAppend: number;
  readonly metadataRoundTripsPerAppend: number;
}

interface ThroughputRow {
  readonly name: string;
  readonly rawPerSecond: number;
  readonly appendsPerSecond: number;
  readonly commitsPerSecond: number;
}

interface Scenario {
  readonly name: string;
  readonly profile: StorageProfile;
  readonly entries: number;
  readonly options?: AppendOptions;
  readonly warmup: number;
  readonly count: number;
}

const SCENARIOS: readonly Scenario[] = [
  { name: "BOOKKEEPER_WAL_ONLY, 1 x 1 KiB", profile: "BOOKKEEPER_WAL_ONLY", entries: 1, warmup: 300, count: 2_000 },
  {
    name: "BOOKKEEPER_WAL_ONLY + gen-0 index in commit, 1 x 1 KiB",
    profile: "BOOKKEEPER_WAL_ONLY",
    entries: 1,
    options: { durability: "WAL_DURABLE_AND_INDEX_COMMITTED" },
    warmup: 300,
    count: 2_000,
  },
  {
    name: "BOOKKEEPER_WAL_ASYNC_OBJECT (BK side, no lag hook), 1 x 1 KiB",
    profile: "BOOKKEEPER_WAL_ASYNC_OBJECT",
    entries: 1,
    warmup: 300,
    count: 2_000,
  },
  { name: "BOOKKEEPER_WAL_ONLY, 16 x 1 KiB", profile: "BOOKKEEPER_WAL_ONLY", entries: 16, warmup: 100, count: 1_000 },
];

function summarize(samples: number[]): Latency {
  samples.sort((a, b) => a - b);
  const at = (fraction: number) =>
    samples[Math.min(samples.length - 1, Math.ceil(fraction * samples.length) - 1)] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), mean: samples.reduce((sum, sample) => sum + sample, 0) / samples.length };
}

/** Raw adds of framed-size payloads: `entries` adds in flight per sample (all awaited). */
async function rawAdds(client: BookKeeperClient, entries: number, warmup: number, count: number): Promise<Latency> {
  const handle = await client.createLedger({ ...QUORUMS, digestType: "CRC32C" });
  const payload = new Uint8Array(randomBytes(ENTRY_BYTES + ENTRY_FRAME_OVERHEAD));
  const once = () => Promise.all(Array.from({ length: entries }, () => handle.addEntry(payload)));
  for (let index = 0; index < warmup; index++) await once();
  const samples: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
  await handle.close();
  await client.deleteLedger(handle.ledgerId);
  return summarize(samples);
}

async function pipelineAppends(
  client: BookKeeperClient,
  scenario: Scenario,
): Promise<{ latency: Latency; addsPerAppend: number; metadataRoundTripsPerAppend: number }> {
  const metadata = new InMemoryMetadataStore();
  const cluster = `bench-${randomBytes(4).toString("hex")}`;
  const wal = createBookKeeperWalRuntime({ client, metadata, cluster, clusterAlias: "bench", ...QUORUMS });
  const store = createStreamStore({ metadata, cluster, writerId: "bench", groupCommit: false, ...wal.storeOptions() });
  try {
    const { streamId } = await store.createStream(`bench-${scenario.profile}`, { profile: scenario.profile });
    const payload = new Uint8Array(randomBytes(ENTRY_BYTES));
    const batch = {
      payloadFormat: "OPAQUE_RECORD_BATCH" as const,
      entries: Array.from({ length: scenario.entries }, () => ({ payload, recordCount: 1 })),
    };
    for (let index = 0; index < scenario.warmup; index++) await store.append(streamId, batch, scenario.options);
    const adds = wal.stats.entriesAdded;
    metadata.stats.reset();
    const samples: number[] = [];
    for (let index = 0; index < scenario.count; index++) {
      const started = performance.now();
      await store.append(streamId, batch, scenario.options);
      samples.push(performance.now() - started);
    }
    return {
      latency: summarize(samples),
      addsPerAppend: (wal.stats.entriesAdded - adds) / scenario.count,
      metadataRoundTripsPerAppend: metadata.stats.roundTrips / scenario.count,
    };
  } finally {
    await store.close();
    await wal.close();
    await metadata.close();
  }
}

async function throughput(client: BookKeeperClient, window: number, count: number): Promise<ThroughputRow> {
  const handle = await client.createLedger({ ...QUORUMS, digestType: "CRC32C" });
  const raw = new Uint8Array(randomBytes(ENTRY_BYTES + ENTRY_FRAME_OVERHEAD));
  const inFlight = new Set<Promise<unknown>>();
  const windowed = async (total: number, start: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    for (let index = 0; index < total; index++) {
      const operation = start();
      inFlight.add(operation);
      void operation.finally(() => inFlight.delete(operation));
      if (inFlight.size >= window) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    return total / ((performance.now() - started) / 1000);
  };
  await windowed(2_000, () => handle.addEntry(raw));
  const rawPerSecond = await windowed(count, () => handle.addEntry(raw));
  await handle.close();
  await client.deleteLedger(handle.ledgerId);

  const metadata = new InMemoryMetadataStore();
  const cluster = `bench-${randomBytes(4).toString("hex")}`;
  const wal = createBookKeeperWalRuntime({ client, metadata, cluster, clusterAlias: "bench", ...QUORUMS });
  const store = createStreamStore({ metadata, cluster, writerId: "bench", ...wal.storeOptions() });
  try {
    const { streamId } = await store.createStream("bench-group", { profile: "BOOKKEEPER_WAL_ONLY" });
    const batch = {
      payloadFormat: "OPAQUE_RECORD_BATCH" as const,
      entries: [{ payload: new Uint8Array(randomBytes(ENTRY_BYTES)), recordCount: 1 }],
    };
    await windowed(2_000, () => store.append(streamId, batch));
    const before = (await store.getHead(streamId)).commitVersion;
    const started = performance.now();
    const appendsPerSecond = await windowed(count, () => store.append(streamId, batch));
    const seconds = (performance.now() - started) / 1000;
    const commits = (await store.getHead(streamId)).commitVersion - before;
    return {
      name: `${String(window)} concurrent callers, 1 x 1 KiB (group commit)`,
      rawPerSecond,
      appendsPerSecond,
      commitsPerSecond: commits / seconds,
    };
  } finally {
    await store.close();
    await wal.close();
    await metadata.close();
  }
}

function printTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join(" | ");
  console.log(line(header));
  console.log(widths.map((width) => "-".repeat(width)).join("-|-"));
  for (const row of rows) console.log(line(row));
}

/** Runs the WAL append benchmark on `services`' bookies and prints its tables. */
export async function runWalAppendBench(services: RunningServices): Promise<void> {
  const client = createBookKeeperClient({
    zooKeeperConnectString: services.zookeeper.connectString,
    ledgersRoot: services.bookkeeper.zkLedgersRoot,
  });
  try {
    // Warm the bookies' JIT before anything is measured.
    await rawAdds(client, 1, 2_000, 10);
    const rows: Row[] = [];
    for (const scenario of SCENARIOS) {
      const raw = await rawAdds(client, scenario.entries, scenario.warmup, scenario.count);
      const measured = await pipelineAppends(client, scenario);
      rows.push({
        name: scenario.name,
        raw,
        append: measured.latency,
        addsPerAppend: measured.addsPerAppend,
        metadataRoundTripsPerAppend: measured.metadataRoundTripsPerAppend,
      });
    }
    console.log(
      `\nBookKeeper WAL append through the StreamStore pipeline vs raw ledger add (E=3 Qw=2 Qa=2; in-memory metadata; ${String(os.cpus().length)} CPU(s))`,
    );
    printTable(
      [
        "scenario (sequential, warm lane)",
        "raw add p50 ms",
        "append p50 ms",
        "p50 append/raw",
        "raw p99 ms",
        "append p99 ms",
        "p99 append/raw",
        "adds/append",
        "metadata RT/append",
      ],
      rows.map((row) => [
        row.name,
        row.raw.p50.toFixed(3),
        row.append.p50.toFixed(3),
        `${(row.append.p50 / row.raw.p50).toFixed(2)}x`,
        row.raw.p99.toFixed(3),
        row.append.p99.toFixed(3),
        `${(row.append.p99 / row.raw.p99).toFixed(2)}x`,
        row.addsPerAppend.toFixed(1),
        row.metadataRoundTripsPerAppend.toFixed(2),
      ]),
    );
    const group = await throughput(client, 64, 20_000);
    printTable(
      ["throughput", "raw adds/s (window 64)", "appends/s", "appends/raw", "head commits/s"],
      [
        [
          group.name,
          group.rawPerSecond.toFixed(0),
          group.appendsPerSecond.toFixed(0),
          `${(group.appendsPerSecond / group.rawPerSecond).toFixed(2)}x`,
          group.commitsPerSecond.toFixed(0),
        ],
      ],
    );
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  let owned: RunningServices | undefined;
  const shared = process.env[SERVICES_FILE_ENV];
  const services =
    shared !== undefined && shared !== ""
      ? loadServices()
      : (owned = await startServices({ bookkeeper: true, jvm: "throughput" }));
  try {
    await runWalAppendBench(services);
  } finally {
    await owned?.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
