// Durable cursor benchmark on the embedded stack (SQLite metadata store with fsync, filesystem object store, both
// in a temporary directory). Measures, in one run:
//   raw txn       — N sequential compare-and-put metadata transactions on one key (what one CAS per ack costs);
//   group commit  — H individually acknowledged holes (every other entry of 2H) on one cursor, W acks in flight:
//                   acks/s and acks per CAS, as ratios to the raw transaction rate;
//   hydration     — a new process opens that stream (owner claim, retention claim, root → snapshot → root): time,
//                   snapshot size, heap and RSS growth;
//   large span    — a cursor over a span of S entries with one unacknowledged entry (a hole) per 100, acknowledged
//                   in large requests, then opened by a new process: time, snapshot size, heap and RSS growth;
//   histories     — the model-based history property (@nereus/cursor/testing) with R random histories.
// The cursors run against a stand-in stream whose head reports the committed end (cursors read only heads and
// trims; no entries are appended). Environment: NEREUS_BENCH_HOLES (H, default 1,000,000), NEREUS_BENCH_RAW_TXNS
// (N, default 5,000), NEREUS_BENCH_IN_FLIGHT (W, default 16,384), NEREUS_BENCH_SPAN (S, default 50,000,000),
// NEREUS_BENCH_HISTORIES (R, default 10,000), NEREUS_BENCH_HISTORY_STACK ("memory", the default: core's in-memory
// stores; "embedded": SQLite + filesystem, much slower).
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { type MetadataStore, type ObjectStore, type StreamHead, streamIdFromName } from "@nereus/core";
import { MemoryWalProvider, streamHeadFixture } from "@nereus/core/testing";
import { type CursorHandle, type CursorLimits, type CursorStreamAccess, CursorStore } from "@nereus/cursor";
import {
  type CursorConformanceFixture,
  checkCursorHistories,
  memoryCursorFixture,
  memoryWalStreamStore,
} from "@nereus/cursor/testing";
import { createSqliteMetadataStore } from "@nereus/metadata";
import { createFileSystemObjectStore } from "@nereus/object-wal";

/** A positive integer from the environment, or `fallback`. */
function setting(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text.replaceAll("_", ""));
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${text}`);
  return value;
}

const HOLES = setting("NEREUS_BENCH_HOLES", 1_000_000);
const RAW_TXNS = setting("NEREUS_BENCH_RAW_TXNS", 5_000);
const IN_FLIGHT = setting("NEREUS_BENCH_IN_FLIGHT", 16_384);
const SPAN = setting("NEREUS_BENCH_SPAN", 50_000_000);
const HISTORIES = setting("NEREUS_BENCH_HISTORIES", 10_000);
const HISTORY_STACK = process.env["NEREUS_BENCH_HISTORY_STACK"] ?? "memory";
/** One unacknowledged entry per this many in the large span. */
const SPAN_HOLE_EVERY = 100;
const CLUSTER = `cursor-bench-${randomBytes(4).toString("hex")}`;

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

interface Row {
  readonly section: string;
  readonly metric: string;
  readonly value: string;
  readonly note?: string;
}

const rows: Row[] = [];
let section = "";

function startSection(title: string, short: string): void {
  section = short;
  console.log(`\n${title}`);
}

function report(metric: string, value: string, note?: string): void {
  rows.push({ section, metric, value, note });
  console.log(`  ${metric}: ${value}${note === undefined ? "" : `  (${note})`}`);
}

const count = (value: number): string => Math.round(value).toLocaleString("en-US");
const fixed = (value: number, digits = 1): string => value.toFixed(digits);
function bytes(value: number): string {
  if (Math.abs(value) < 1024 * 1024) return `${fixed(value / 1024)} KiB`;
  return `${fixed(value / 1024 / 1024)} MiB`;
}

// ---- the embedded stack ----

interface EmbeddedClients {
  readonly metadata: MetadataStore;
  readonly objects: ObjectStore;
  close(): Promise<void>;
}

async function openEmbedded(directory: string): Promise<EmbeddedClients> {
  const metadata = await createSqliteMetadataStore({ path: path.join(directory, "metadata.sqlite") });
  const objects = createFileSystemObjectStore({ root: path.join(directory, "objects") });
  return {
    metadata,
    objects,
    close: async () => {
      await objects.close();
      await metadata.close();
    },
  };
}

/** A stand-in stream: its head reports `committedEnd` entries; a trim moves only the reported trim offset. */
function standInStream(name: string, committedEnd: number): { streamId: string; streams: CursorStreamAccess } {
  const streamId = streamIdFromName(name);
  let head: StreamHead = streamHeadFixture({ streamId, streamName: name, committedEndOffset: committedEnd });
  return {
    streamId,
    streams: {
      getHead: () => Promise.resolve(head),
      trim: (_streamId, trimOffset) => {
        head = { ...head, trimOffset: Math.max(head.trimOffset, trimOffset) };
        return Promise.resolve(head);
      },
    },
  };
}

function cursorStore(clients: EmbeddedClients, streams: CursorStreamAccess, limits: Partial<CursorLimits> = {}) {
  return new CursorStore({ metadata: clients.metadata, objects: clients.objects, streams, cluster: CLUSTER, limits });
}

// ---- measurements ----

/** Sequential compare-and-put transactions on one key; resolves transactions per second. */
async function rawTxnRate(metadata: MetadataStore): Promise<number> {
  const key = `/nereus/clusters/${CLUSTER}/bench/raw-txn`;
  const value = randomBytes(160);
  let revision = 0;
  const run = async (times: number): Promise<void> => {
    for (let index = 0; index < times; index++) {
      const result = await metadata.txn({
        compares: [{ key, modRevision: revision }],
        writes: [{ type: "put", key, value }],
      });
      if (!result.succeeded) throw new Error("raw txn lost its compare");
      revision = result.revision;
    }
  };
  await run(Math.min(200, RAW_TXNS));
  const started = performance.now();
  await run(RAW_TXNS);
  return RAW_TXNS / ((performance.now() - started) / 1000);
}

/** Submits `total` ack calls (`submit(i)` makes the i-th) keeping at most `window` in flight. */
async function ackWindowed(
  total: number,
  window: number,
  submit: (index: number) => Promise<{ readonly alreadyApplied: boolean }>,
): Promise<void> {
  let inFlight = 0;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const settled = (): void => {
    inFlight -= 1;
    const waiter = wake;
    wake = undefined;
    waiter?.();
  };
  const waitForRoom = async (limit: number): Promise<void> => {
    while (inFlight > limit) await new Promise<void>((resolve) => (wake = resolve));
  };
  for (let index = 0; index < total; index++) {
    await waitForRoom(window - 1);
    if (failure !== undefined) throw failure;
    inFlight += 1;
    submit(index).then(settled, (error: unknown) => {
      failure ??= error;
      settled();
    });
  }
  await waitForRoom(0);
  if (failure !== undefined) throw failure;
}

/** JS heap in use plus ArrayBuffer memory (typed arrays of the ack state live outside the heap). */
function heapAndBuffers(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * One metadata transaction and one object read on fresh clients, so their lazily started parts (the SQLite writer
 * thread, the filesystem store's first read) run before anything is timed.
 */
async function warmUp(clients: EmbeddedClients): Promise<void> {
  const key = `/nereus/clusters/${CLUSTER}/bench/warm-up`;
  await clients.metadata.txn({ compares: [], writes: [{ type: "put", key, value: new Uint8Array(1) }] });
  const objectKey = `cursor-bench/warm-up/${randomBytes(8).toString("hex")}`;
  await clients.objects.putIfAbsent(objectKey, new Uint8Array(16));
  await clients.objects.get(objectKey);
}

/** Collects garbage until freed ArrayBuffer memory was returned too (it is released after the collection). */
async function settleMemory(): Promise<void> {
  for (let round = 0; round < 3; round++) {
    collectGarbage();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

interface MeasuredOpen {
  readonly handle: CursorHandle;
  readonly ms: number;
  /** Growth of JS heap plus array buffers over the open (what the open cursor holds). */
  readonly retained: number;
  readonly rssAfter: number;
  close(): Promise<void>;
}

/** Time and memory of a new process opening `streamId` (fresh clients, new cursor store). */
async function measureOpen(
  directory: string,
  streams: CursorStreamAccess,
  streamId: string,
  cursorName: string,
): Promise<MeasuredOpen> {
  const clients = await openEmbedded(directory);
  await warmUp(clients);
  const store = cursorStore(clients, streams);
  await settleMemory();
  const before = heapAndBuffers();
  const started = performance.now();
  const cursors = await store.openStream(streamId);
  const ms = performance.now() - started;
  await settleMemory();
  const handle = cursors.get(cursorName);
  if (handle === undefined) throw new Error(`cursor ${cursorName} is missing after the open`);
  return {
    handle,
    ms,
    retained: heapAndBuffers() - before,
    rssAfter: process.memoryUsage().rss,
    close: async () => {
      await store.close();
      await clients.close();
    },
  };
}

function reportOpen(opened: MeasuredOpen, emptyMs: number, holes: number, committedEnd: number): void {
  const size = opened.handle.state.root.snapshot?.sizeBytes ?? 0;
  const inline = opened.handle.state.root.inlineRanges.length + opened.handle.state.root.inlinePartials.length;
  report("open (claim + hydrate)", `${fixed(opened.ms)} ms`, `${fixed(opened.ms / emptyMs)}x an empty cursor's open`);
  report("snapshot size", bytes(size), `${fixed(size / holes, 2)} bytes per hole; ${count(inline)} inline items`);
  report("heap + buffers retained", bytes(opened.retained), `RSS ${bytes(opened.rssAfter)} after the open`);
  report(
    "markDelete / backlog",
    `${count(opened.handle.markDeleteOffset)} / ${count(opened.handle.backlog(committedEnd))}`,
  );
}

/** Time of opening a stream whose one cursor has no acks (what every open costs before hydration). */
async function emptyOpen(directory: string): Promise<number> {
  const { streamId, streams } = standInStream(`cursor-bench-empty-${CLUSTER}`, 1_000);
  const clients = await openEmbedded(directory);
  const store = cursorStore(clients, streams);
  await (await store.openStream(streamId)).createCursor("empty", { initialOffset: 0 });
  await store.close();
  await clients.close();
  const opened = await measureOpen(directory, streams, streamId, "empty");
  await opened.close();
  return opened.ms;
}

/** Acks every other entry of 2 * HOLES one call each; reports the group commit; closes everything it opened. */
async function ackHoles(
  streamId: string,
  streams: CursorStreamAccess,
  directory: string,
  rawRate: number,
): Promise<void> {
  const clients = await openEmbedded(directory);
  const store = cursorStore(clients, streams);
  const cursors = await store.openStream(streamId);
  const handle = await cursors.createCursor("holes", { initialOffset: 0 });
  store.counters.reset();
  const started = performance.now();
  await ackWindowed(HOLES, IN_FLIGHT, (index) => handle.individualAck([{ offset: 2 * index + 1 }]));
  const seconds = (performance.now() - started) / 1000;
  const counters = store.counters;
  const acksPerSecond = HOLES / seconds;
  startSection(
    `group commit: ${count(HOLES)} individually acked holes (every other entry of ${count(2 * HOLES)})`,
    "group commit",
  );
  report("acks/s with group commit", count(acksPerSecond), `${fixed(acksPerSecond / rawRate)}x the raw txn rate`);
  report("acks per CAS", fixed(counters.acksCommitted / counters.ackCommits), "1 with one txn per ack");
  report("root CAS committed", count(counters.casCommits), `${count(counters.casConflicts)} conflicts`);
  report("snapshots written", count(counters.snapshotsWritten), `${bytes(counters.snapshotBytesWritten)} in total`);
  await store.close();
  await clients.close();
}

async function groupCommitAndHydration(directory: string, rawRate: number, emptyMs: number): Promise<void> {
  const entries = 2 * HOLES;
  const { streamId, streams } = standInStream(`cursor-bench-holes-${CLUSTER}`, entries);
  await ackHoles(streamId, streams, directory, rawRate);
  const opened = await measureOpen(directory, streams, streamId, "holes");
  if (opened.handle.backlog(entries) !== HOLES) throw new Error("the hydrated cursor lost acks");
  if (!opened.handle.isAcked(entries - 1) || opened.handle.isAcked(entries - 2)) throw new Error("wrong ack state");
  startSection("hydration of that cursor by a new process", `${count(HOLES)} holes`);
  reportOpen(opened, emptyMs, HOLES, entries);
  await opened.close();
}

/** Builds a cursor over SPAN entries with one unacked entry per SPAN_HOLE_EVERY; resolves the build seconds. */
async function buildSpan(streamId: string, streams: CursorStreamAccess, directory: string): Promise<number> {
  const clients = await openEmbedded(directory);
  const store = cursorStore(clients, streams, { maxAcksPerRequest: 10_000, maxAcksPerCas: 200_000 });
  const cursors = await store.openStream(streamId);
  const handle = await cursors.createCursor("span", { initialOffset: 0 });
  const entriesPerRequest = 100 * SPAN_HOLE_EVERY;
  const started = performance.now();
  await ackWindowed(Math.ceil(SPAN / entriesPerRequest), 16, (request) => {
    const items: { offset: number }[] = [];
    const first = request * entriesPerRequest;
    for (let offset = first; offset < Math.min(first + entriesPerRequest, SPAN); offset++) {
      if (offset % SPAN_HOLE_EVERY !== 0) items.push({ offset });
    }
    return handle.individualAck(items);
  });
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  await clients.close();
  return seconds;
}

async function largeSpan(directory: string, emptyMs: number): Promise<void> {
  const { streamId, streams } = standInStream(`cursor-bench-span-${CLUSTER}`, SPAN);
  const buildSeconds = await buildSpan(streamId, streams, directory);
  const holes = Math.ceil(SPAN / SPAN_HOLE_EVERY);
  const opened = await measureOpen(directory, streams, streamId, "span");
  if (opened.handle.backlog(SPAN) !== holes) throw new Error("the hydrated span lost acks");
  startSection(
    `${count(SPAN)}-entry span, one hole per ${String(SPAN_HOLE_EVERY)} entries (${count(holes)} holes)`,
    `${count(SPAN)} span`,
  );
  report("build (acks in requests of 9,900)", `${fixed(buildSeconds)} s`, "not part of the open");
  reportOpen(opened, emptyMs, holes, SPAN);
  await opened.close();
}

/** The fixture the history property runs on (HISTORY_STACK). */
async function historyFixture(directory: string): Promise<CursorConformanceFixture> {
  if (HISTORY_STACK === "memory") return memoryCursorFixture();
  if (HISTORY_STACK !== "embedded") throw new Error(`NEREUS_BENCH_HISTORY_STACK must be memory or embedded`);
  const wal = new MemoryWalProvider({ walKind: "BOOKKEEPER" });
  const open = async () => {
    const clients = await openEmbedded(directory);
    const streams = memoryWalStreamStore(clients.metadata, CLUSTER, wal);
    return {
      metadata: clients.metadata,
      objects: clients.objects,
      streams,
      close: async () => {
        await streams.close();
        await clients.close();
      },
    };
  };
  const first = await open();
  return { ...first, cluster: CLUSTER, reopen: open, cleanup: first.close };
}

async function histories(directory: string): Promise<void> {
  const fixture = await historyFixture(directory);
  const started = performance.now();
  try {
    const stats = await checkCursorHistories(fixture, { runs: HISTORIES });
    const seconds = (performance.now() - started) / 1000;
    startSection(`model-based history property (${HISTORY_STACK} stores)`, "histories");
    report("histories agreeing with the model", count(stats.histories), `${fixed(seconds)} s`);
    report(
      "commands checked",
      count(stats.commands),
      `${count(stats.restarts)} restarts, ${count(stats.ownerChanges)} owner changes, ` +
        `${count(stats.lostResponses)} lost responses, ${count(stats.snapshotsWritten)} snapshots`,
    );
  } finally {
    await fixture.cleanup();
  }
}

function printTable(): void {
  const widths = {
    section: Math.max(...rows.map((row) => row.section.length)),
    metric: Math.max(...rows.map((row) => row.metric.length)),
    value: Math.max(...rows.map((row) => row.value.length)),
  };
  console.log("\n| part | metric | value | note |\n|---|---|---:|---|");
  for (const row of rows) {
    const cells = [
      row.section.padEnd(widths.section),
      row.metric.padEnd(widths.metric),
      row.value.padStart(widths.value),
      row.note ?? "",
    ];
    console.log(`| ${cells.join(" | ")} |`);
  }
}

async function main(): Promise<void> {
  const directory = await mkdtemp(path.join(tmpdir(), "nereus-cursor-bench-"));
  try {
    console.log(`cursor benchmark on SQLite (fsync) + filesystem objects in ${directory}`);
    const raw = await openEmbedded(directory);
    const rawRate = await rawTxnRate(raw.metadata);
    await raw.close();
    startSection(`raw metadata txn (${count(RAW_TXNS)} sequential CAS on one key)`, "raw txn");
    report("raw txn/s", count(rawRate), "one txn per ack");
    const emptyMs = await emptyOpen(directory);
    startSection("open of a stream whose one cursor has no acks", "baseline");
    report("open (claim + load)", `${fixed(emptyMs)} ms`);
    await groupCommitAndHydration(directory, rawRate, emptyMs);
    await largeSpan(directory, emptyMs);
    await histories(directory);
    printTable();
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
