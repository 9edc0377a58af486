// Storage reclamation benchmark of the Object WAL profiles. Measures, in one run:
//   histories — R randomized reclamation histories (@nereus/object-wal/testing) on core's in-memory stores: appends,
//               trims, materializations, reads in flight, collector crashes, foreign collectors, lost DELETE and
//               transaction responses; every committed offset at or above the trim re-read and compared after each
//               collection run; nothing left after a full trim. Any loss fails the benchmark.
//   retention — P partitions (streams) written at once (so WAL objects are shared), M MiB in 16 KiB appends of
//               1 KiB records, each partition trimmed to its last K KiB after every round, materialized (generations
//               replace the WAL copies) and collected by its owner. At the end: bytes stored (sum of stored object
//               sizes; the data directory too on the embedded stack) against the retained bytes, metadata keys per
//               partition, and what the collector freed. The collector's grace periods are 0 here (the figures are
//               about the steady state, not the waits).
// Environment: NEREUS_BENCH_RECLAIM_HISTORIES (R, default 1,000), NEREUS_BENCH_RECLAIM_PARTITIONS (P, default 20),
// NEREUS_BENCH_RECLAIM_MIB (M, default 64), NEREUS_BENCH_RECLAIM_RETAINED_KIB (K, default 512),
// NEREUS_BENCH_RECLAIM_STACK ("embedded", the default: filesystem + SQLite in a temporary directory; "memory").
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { type MetadataStore, type ObjectStore, type StreamStore } from "@nereus/core";
import { clusterPrefix } from "@nereus/core/internal";
import { InMemoryMetadataStore, InMemoryObjectStore } from "@nereus/core/testing";
import { createSqliteMetadataStore } from "@nereus/metadata";
import { createFileSystemObjectStore, type ReclamationRunReport } from "@nereus/object-wal";
import { ObjectWalStack, ReclamationHistoryTally, runReclamationHistory } from "@nereus/object-wal/testing";

/** A positive integer from the environment, or `fallback`. */
function setting(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text.replaceAll("_", ""));
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${text}`);
  return value;
}

const HISTORIES = setting("NEREUS_BENCH_RECLAIM_HISTORIES", 1_000);
const PARTITIONS = setting("NEREUS_BENCH_RECLAIM_PARTITIONS", 20);
const PRODUCED_MIB = setting("NEREUS_BENCH_RECLAIM_MIB", 64);
const RETAINED_KIB = setting("NEREUS_BENCH_RECLAIM_RETAINED_KIB", 512);
const STACK = process.env["NEREUS_BENCH_RECLAIM_STACK"] ?? "embedded";
const RECORD_BYTES = 1024;
const RECORDS_PER_APPEND = 16;
const IMMEDIATE = { graceMs: 0, clockSkewMs: 0, minObjectAgeMs: 0, tombstoneRetentionMs: 0 };

interface Row {
  readonly part: string;
  readonly metric: string;
  readonly value: string;
  readonly note?: string;
}

const rows: Row[] = [];

function report(part: string, metric: string, value: string, note?: string): void {
  rows.push({ part, metric, value, ...(note === undefined ? {} : { note }) });
  console.log(`  ${metric}: ${value}${note === undefined ? "" : ` (${note})`}`);
}

const count = (value: number): string => Math.round(value).toLocaleString("en-US");
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

async function histories(): Promise<void> {
  console.log(`histories: ${count(HISTORIES)} randomized reclamation histories on the in-memory stores`);
  const tally = new ReclamationHistoryTally();
  const started = performance.now();
  for (let seed = 1; seed <= HISTORIES; seed++) {
    const metadata = new InMemoryMetadataStore();
    try {
      await runReclamationHistory({ metadata, objectStore: new InMemoryObjectStore() }, { seed }, tally);
    } finally {
      await metadata.close();
    }
  }
  const seconds = (performance.now() - started) / 1000;
  report("histories", "histories without a loss", count(tally.histories), `${seconds.toFixed(1)} s`);
  report("histories", "offsets re-read and compared", count(tally.offsetsChecked));
  report("histories", "collection runs", count(tally.collectionRuns), `${count(tally.crashedRuns)} crashed`);
  report("histories", "runs as another process", count(tally.foreignRuns), "no shared read pins");
  report(
    "histories",
    "injected faults",
    count(tally.lostDeleteResponses + tally.failedDeletes + tally.lostTxnResponses),
    `${count(tally.lostDeleteResponses)} lost DELETE responses, ${count(tally.failedDeletes)} failed DELETEs, ${count(tally.lostTxnResponses)} lost txn responses`,
  );
  report(
    "histories",
    "reads in flight",
    count(tally.readsInFlight),
    `${count(tally.readsInFlightTrimmed)} OFFSET_TRIMMED, ${count(tally.readsInFlightShortened)} cut at the trim`,
  );
  report(
    "histories",
    "appends / trims / materializations / restarts",
    `${count(tally.appends)} / ${count(tally.trims)} / ${count(tally.materializations)} / ${count(tally.brokerRestarts)}`,
  );
  report("histories", "objects freed", count(tally.objectsFreed), mib(tally.bytesFreed));
}

interface Stores {
  readonly metadata: MetadataStore;
  readonly objectStore: ObjectStore;
  readonly directory: string | undefined;
  close(): Promise<void>;
}

async function openStores(): Promise<Stores> {
  if (STACK === "memory") {
    const metadata = new InMemoryMetadataStore();
    return { metadata, objectStore: new InMemoryObjectStore(), directory: undefined, close: () => metadata.close() };
  }
  if (STACK !== "embedded") throw new Error(`NEREUS_BENCH_RECLAIM_STACK must be "embedded" or "memory", got ${STACK}`);
  const directory = await mkdtemp(path.join(tmpdir(), "nereus-reclaim-bench-"));
  const metadata = await createSqliteMetadataStore({ path: path.join(directory, "metadata.sqlite") });
  const objectStore = createFileSystemObjectStore({ root: path.join(directory, "objects") });
  return {
    metadata,
    objectStore,
    directory,
    close: async () => {
      await objectStore.close();
      await metadata.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

async function retention(): Promise<void> {
  const stores = await openStores();
  const stack = new ObjectWalStack(
    stores.metadata,
    stores.objectStore,
    `reclaim-bench-${randomBytes(4).toString("hex")}`,
  );
  const retainedRecords = Math.max(1, Math.floor((RETAINED_KIB * 1024) / RECORD_BYTES));
  const rounds = Math.ceil((PRODUCED_MIB * 1024 * 1024) / (PARTITIONS * RECORDS_PER_APPEND * RECORD_BYTES));
  console.log(
    `retention: ${count(PARTITIONS)} partitions, ${count(PRODUCED_MIB)} MiB in ${count(rounds)} rounds, last ${count(RETAINED_KIB)} KiB kept per partition (${STACK})`,
  );
  try {
    const { store, runtime } = stack.open({
      runtime: {
        flush: { lingerMs: 2 },
        materialization: { enabled: false, policy: { minLevelOneBytes: 0 } },
        reclamation: { policy: IMMEDIATE },
      },
    });
    const streams: string[] = [];
    for (let index = 0; index < PARTITIONS; index++) {
      const { streamId } = await store.createStream(`partition-${String(index)}`, {
        profile: "OBJECT_WAL_SYNC_OBJECT",
      });
      streams.push(streamId);
    }
    const payload = randomBytes(RECORD_BYTES);
    const batch = {
      payloadFormat: "OPAQUE_RECORD_BATCH" as const,
      entries: Array.from({ length: RECORDS_PER_APPEND }, () => ({ payload, recordCount: 1 })),
    };
    const runs: ReclamationRunReport[] = [];
    const started = performance.now();
    for (let round = 0; round < rounds; round++) {
      await Promise.all(streams.map((streamId) => store.append(streamId, batch)));
      if (round % 4 === 3 || round === rounds - 1) {
        await trimAll(store, streams, retainedRecords);
        await runtime.worker.runOnce();
        for (const streamId of streams) runs.push(await runtime.reclaimer.runStream(streamId));
      }
    }
    const seconds = (performance.now() - started) / 1000;
    // The last round's freshly released objects: one more pass frees what the previous one marked.
    await runtime.worker.runOnce();
    for (const streamId of streams) runs.push(await runtime.reclaimer.runStream(streamId));
    const failed = runs.filter((run) => run.error !== undefined);
    if (failed.length > 0) throw new Error("a collection run failed", { cause: failed[0]?.error });
    await summarize(stack, stores, streams, runs, runtime.reclaimer.stats, seconds);
  } finally {
    await stack.dispose();
    await stores.close();
  }
}

async function trimAll(store: StreamStore, streams: readonly string[], retainedRecords: number): Promise<void> {
  for (const streamId of streams) {
    const head = await store.getHead(streamId);
    const target = Math.max(head.trimOffset, head.committedEndOffset - retainedRecords);
    if (target > head.trimOffset) await store.trim(streamId, target);
  }
}

async function summarize(
  stack: ObjectWalStack,
  stores: Stores,
  streams: readonly string[],
  runs: readonly ReclamationRunReport[],
  stats: { readonly bytesFreed: ReadonlyMap<string, number>; readonly objectsFreed: ReadonlyMap<string, number> },
  seconds: number,
): Promise<void> {
  let retained = 0;
  let produced = 0;
  let keys = 0;
  let maxKeys = 0;
  const prefix = clusterPrefix(stack.cluster);
  for (const streamId of streams) {
    const head = await stack.head(streamId);
    retained += (head.committedEndOffset - head.trimOffset) * RECORD_BYTES;
    produced += head.committedEndOffset * RECORD_BYTES;
    const streamKeys = await countKeys(stack.metadata, `${prefix}/streams/${streamId}/`);
    keys += streamKeys;
    maxKeys = Math.max(maxKeys, streamKeys);
  }
  const stored = await storedBytes(stores.objectStore);
  const physical = await countKeys(stack.metadata, `${prefix}/physical-objects/`);
  report("retention", "produced", mib(produced), `${seconds.toFixed(1)} s`);
  report("retention", "retained (above the trim)", mib(retained));
  report("retention", "stored (object sizes)", mib(stored), `${(stored / retained).toFixed(3)} × retained`);
  report("retention", "overhead beyond 1.2 × retained", mib(Math.max(0, stored - 1.2 * retained)));
  if (stores.directory !== undefined) {
    const onDisk = await directoryBytes(path.join(stores.directory, "objects"));
    report("retention", "object directory on disk", mib(onDisk), `${(onDisk / retained).toFixed(3)} × retained`);
  }
  report("retention", "metadata keys per partition", (keys / streams.length).toFixed(1), `max ${count(maxKeys)}`);
  report("retention", "physical roots + protections", count(physical), "cluster-wide");
  for (const [kind, bytes] of stats.bytesFreed)
    report("retention", `freed ${kind}`, mib(bytes), `${count(stats.objectsFreed.get(kind) ?? 0)} objects`);
  const durations = runs.map((run) => run.durationMs).sort((a, b) => a - b);
  report(
    "retention",
    "collection run (one partition)",
    `${String(durations[Math.floor(durations.length / 2)] ?? 0)} ms p50`,
    `${String(durations.at(-1) ?? 0)} ms max over ${count(runs.length)} runs`,
  );
}

async function storedBytes(objectStore: ObjectStore): Promise<number> {
  let total = 0;
  let token: string | undefined;
  do {
    const page = await objectStore.list("", {
      limit: 1000,
      ...(token === undefined ? {} : { continuationToken: token }),
    });
    for (const item of page.items) total += item.size;
    token = page.continuationToken;
  } while (token !== undefined);
  return total;
}

async function countKeys(metadata: MetadataStore, prefix: string): Promise<number> {
  let total = 0;
  let after: string | undefined;
  for (;;) {
    const page = await metadata.scan(prefix, { limit: 1000, ...(after === undefined ? {} : { startAfter: after }) });
    total += page.items.length;
    const last = page.items.at(-1);
    if (!page.more || last === undefined) return total;
    after = last.key;
  }
}

async function directoryBytes(directory: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(directory, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) total += await directoryBytes(full);
    else if (entry.isFile()) total += (await stat(full)).size;
  }
  return total;
}

function printTable(): void {
  console.log("\n| part | metric | value | note |\n|---|---|---:|---|");
  for (const row of rows) console.log(`| ${row.part} | ${row.metric} | ${row.value} | ${row.note ?? ""} |`);
}

async function main(): Promise<void> {
  await retention();
  await histories();
  printTable();
}

await main();
