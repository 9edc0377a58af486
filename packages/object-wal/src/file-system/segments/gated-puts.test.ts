// Gated puts of the segment layout (SegmentLog.putGated, FileSystemObjectStore.accelerations.putIfAbsentGated): the
// gate's shared words, reads that wait for the write, the cases that start nothing, and failures that fail the gate.
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DurabilityGateWord, ErrorCode, NereusError, crc32c, type DurabilityGate, type GatedPut } from "@nereus/core";
import { expectNereusError, nereusRejectionOf } from "@nereus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { FilePublishPool } from "../publish-worker/file-publish-worker.js";
import type { SegmentWriteJob, SegmentWriteOutcome } from "../publish-worker/publish-jobs.js";
import { FileSystemObjectStore, type SegmentLayoutOptions } from "../file-system-object-store.js";
import { MAX_SEGMENT_JOBS_IN_FLIGHT, SegmentLog } from "./segment-log.js";
import { segmentFileName } from "./segment-recovery.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const sized = (length: number, seed: number): Uint8Array =>
  Uint8Array.from({ length }, (_, index) => (index * 31 + seed) % 251);

interface GateWords {
  readonly durable: bigint;
  readonly failed: bigint;
  readonly changes: bigint;
}

/** The shared words of `gate` (which must have them) and its sequence. */
function shared(gate: DurabilityGate): { readonly sequence: number; readonly words: () => GateWords } {
  const form = gate.accelerations?.shared;
  if (form === undefined) throw new Error("expected a gate with shared words");
  const view = new BigInt64Array(form.words);
  return {
    sequence: form.sequence,
    words: () => ({
      durable: Atomics.load(view, DurabilityGateWord.durable),
      failed: Atomics.load(view, DurabilityGateWord.failed),
      changes: Atomics.load(view, DurabilityGateWord.changes),
    }),
  };
}

function started(put: GatedPut | undefined): GatedPut {
  if (put === undefined) throw new Error("expected the gated put to start");
  return put;
}

const roots: string[] = [];
const stores: FileSystemObjectStore[] = [];
const pools: FilePublishPool[] = [];
const logs: SegmentLog[] = [];

async function newRoot(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "nereus-gated-"));
  roots.push(root);
  return root;
}

/** `segments: "off"`: no segments option at all. */
function openStore(
  root: string,
  segments: boolean | SegmentLayoutOptions | "off" = { segmentBytes: 4096, compactBelow: 0 },
): FileSystemObjectStore {
  const store = new FileSystemObjectStore(segments === "off" ? { root } : { root, segments });
  stores.push(store);
  return store;
}

/**
 * A real pool that, once armed, holds back the answer of the next job with records until another job was sent after
 * it: the log then sees that job in flight while the next one goes out, whatever the worker's speed.
 */
class HoldingPool extends FilePublishPool {
  readonly sent: SegmentWriteJob[] = [];
  #armed = false;
  #release: (() => void) | undefined;
  #held: ((job: SegmentWriteJob) => void) | undefined;

  /** Holds the next job with records; resolves once it was sent. */
  arm(): Promise<SegmentWriteJob> {
    this.#armed = true;
    return new Promise((resolve) => {
      this.#held = resolve;
    });
  }

  override writeSegment(job: SegmentWriteJob): Promise<SegmentWriteOutcome> {
    this.sent.push(job);
    const outcome = super.writeSegment(job);
    this.#release?.();
    this.#release = undefined;
    if (!this.#armed || job.records.length === 0) return outcome;
    this.#armed = false;
    const released = new Promise<void>((resolve) => {
      this.#release = resolve;
      setTimeout(resolve, 5_000);
    });
    this.#held?.(job);
    return released.then(() => outcome);
  }
}

async function openLog(
  directory: string,
  segmentBytes = 4096,
  pool: FilePublishPool = new FilePublishPool(1),
): Promise<{ log: SegmentLog; pool: FilePublishPool }> {
  pools.push(pool);
  const log = await SegmentLog.open({ directory, pool, fsync: true, segmentBytes, compactBelow: 0 });
  logs.push(log);
  return { log, pool };
}

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const log of logs.splice(0)) await log.close();
  for (const pool of pools.splice(0)) await pool.close();
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

describe("SegmentLog.putGated", () => {
  it("opens the gate (shared words and promise) once the record is written, in sequence order", async () => {
    const { log } = await openLog(path.join(await newRoot(), "segments"));
    const first = log.putGated("g/1", bytes("one"), crc32c(bytes("one")));
    const second = log.putGated("g/2", bytes("two"), crc32c(bytes("two")));
    const a = shared(first.gate);
    const b = shared(second.gate);
    // Both gates share one writer's words; sequences increase with the order of the puts.
    expect(b.sequence).toBeGreaterThan(a.sequence);
    expect(a.words().failed).toBe(0n);
    expect(await first.written).toBe(true);
    expect(await second.written).toBe(true);
    await first.gate.durable;
    await second.gate.durable;
    const words = b.words();
    expect(words.durable).toBeGreaterThanOrEqual(BigInt(b.sequence));
    expect(words.failed).toBe(0n);
    expect(words.changes).toBeGreaterThan(0n);
    expect(log.whenWritten("g/1")).toBeUndefined();
    expect(log.info("g/2")).toMatchObject({ key: "g/2", size: 3, crc32c: crc32c(bytes("two")) });
  });

  it("a read or whenWritten of a key issued before its write ends waits for it", async () => {
    const { log } = await openLog(path.join(await newRoot(), "segments"));
    const body = sized(1000, 3);
    const put = log.putGated("w/1", body, crc32c(body));
    expect(log.info("w/1")).toBeUndefined();
    const waiting = log.whenWritten("w/1");
    expect(waiting).toBeDefined();
    const read = log.read("w/1", undefined);
    const ranged = log.read("w/1", { offset: 10, length: 20 });
    expect(await read).toEqual(body);
    expect(await ranged).toEqual(body.subarray(10, 30));
    await waiting;
    expect(await put.written).toBe(true);
  });

  it("fails the gate, never showing its sequence durable, when the segment write fails (worker side)", async () => {
    const directory = path.join(await newRoot(), "segments");
    const { log } = await openLog(directory, 256);
    const ok = log.putGated("f/ok", sized(100, 1), crc32c(sized(100, 1)));
    await ok.gate.durable;
    const okSequence = shared(ok.gate).sequence;
    // The next record does not fit the 256-byte segment: the log rolls to a new segment, created create-only. A file
    // already at that name makes the worker's open fail (EEXIST), which fails the layout.
    const files = (await readdir(directory)).filter((name) => name.endsWith(".nsr"));
    expect(files).toHaveLength(1);
    const current = Number.parseInt(/^segment-(\d+)\.nsr$/.exec(files[0] ?? "")?.[1] ?? "", 10);
    expect(current).toBeGreaterThan(0);
    await writeFile(path.join(directory, segmentFileName(current + 1)), "in the way");
    const body = sized(200, 2);
    const failing = log.putGated("f/bad", body, crc32c(body));
    const gate = shared(failing.gate);
    expect(gate.sequence).toBeGreaterThan(okSequence);
    const reads = log.read("f/bad", undefined);
    await expectNereusError(failing.gate.durable, ErrorCode.OBJECT_UPLOAD_FAILED);
    await expect(failing.written).rejects.toThrow();
    const words = gate.words();
    expect(words.failed).not.toBe(0n);
    expect(words.durable).toBeLessThan(BigInt(gate.sequence));
    expect(words.durable).toBeGreaterThanOrEqual(BigInt(okSequence));
    // The read that waited for the write sees no object; the earlier gate stays open and its object readable.
    expect(await reads).toBeUndefined();
    expect(await log.read("f/ok", undefined)).toEqual(sized(100, 1));
    // Later puts are refused at once.
    expect(() => log.putGated("f/later", bytes("x"), crc32c(bytes("x")))).toThrow(NereusError);
    expect(gate.words().durable).toBeLessThan(BigInt(gate.sequence));
  });

  it("sends the next job while one is in flight; both land in order and survive a reopen", async () => {
    expect(MAX_SEGMENT_JOBS_IN_FLIGHT).toBe(2);
    const directory = path.join(await newRoot(), "segments");
    const pool = new HoldingPool(1);
    const { log } = await openLog(directory, 4096, pool);
    const held = pool.arm();
    const first = log.putGated("p/1", sized(700, 1), crc32c(sized(700, 1)));
    const firstJob = await held;
    // Put while the first job is in flight: it goes out behind it (at the end of the turn), after its records.
    const second = log.putGated("p/2", sized(900, 2), crc32c(sized(900, 2)));
    const third = log.putGated("p/3", sized(300, 3), crc32c(sized(300, 3)));
    expect(await first.written).toBe(true);
    expect(await second.written).toBe(true);
    expect(await third.written).toBe(true);
    await third.gate.durable;
    const jobs = pool.sent.filter((job) => job.records.length > 0);
    expect(jobs).toHaveLength(2);
    expect(jobs[0]).toBe(firstJob);
    expect(jobs[1]).toMatchObject({
      create: false,
      follows: true,
      position: (firstJob.records[0]?.head.length ?? 0) + 700,
    });
    expect(jobs[1]?.records).toHaveLength(2);
    expect(log.stats.followingJobs).toBe(1);
    expect(log.stats.writeJobs).toBe(2);
    await log.close();
    const { log: reopened } = await openLog(directory);
    expect(await reopened.read("p/1", undefined)).toEqual(sized(700, 1));
    expect(await reopened.read("p/2", undefined)).toEqual(sized(900, 2));
    expect(await reopened.read("p/3", undefined)).toEqual(sized(300, 3));
  });

  it("writes nothing behind a failed job: the job sent behind it is refused, its gate fails, the file is untouched", async () => {
    const directory = path.join(await newRoot(), "segments");
    const pool = new HoldingPool(1);
    const { log } = await openLog(directory, 256, pool);
    const ok = log.putGated("h/ok", sized(100, 1), crc32c(sized(100, 1)));
    await ok.gate.durable;
    // The next record rolls to a new segment, created create-only; a file in the way fails that job (EEXIST).
    const files = (await readdir(directory)).filter((name) => name.endsWith(".nsr"));
    const current = Number.parseInt(/^segment-(\d+)\.nsr$/.exec(files[0] ?? "")?.[1] ?? "", 10);
    const inTheWay = path.join(directory, segmentFileName(current + 1));
    await writeFile(inTheWay, "in the way");
    const held = pool.arm();
    const failing = log.putGated("h/bad", sized(120, 2), crc32c(sized(120, 2)));
    await held;
    const behind = log.putGated("h/behind", sized(50, 3), crc32c(sized(50, 3)));
    await expectNereusError(failing.gate.durable, ErrorCode.OBJECT_UPLOAD_FAILED);
    await expectNereusError(behind.gate.durable, ErrorCode.OBJECT_UPLOAD_FAILED);
    // The failed job's records may have been written; the refused one's were not.
    expect((await nereusRejectionOf(failing.written)).details).toMatchObject({ mayHaveApplied: true });
    expect((await nereusRejectionOf(behind.written)).details["mayHaveApplied"]).toBeUndefined();
    expect(pool.sent.at(-1)).toMatchObject({ follows: true, create: false });
    expect(log.stats.followingJobs).toBe(1);
    expect(await readFile(inTheWay, "utf8")).toBe("in the way");
    expect(shared(behind.gate).words().durable).toBeLessThan(BigInt(shared(behind.gate).sequence));
    expect(await log.read("h/behind", undefined)).toBeUndefined();
    expect(await log.read("h/ok", undefined)).toEqual(sized(100, 1));
  });

  it("fails the gate when the write is refused before reaching a worker (closed pool)", async () => {
    const { log, pool } = await openLog(path.join(await newRoot(), "segments"));
    await pool.close();
    const put = log.putGated("c/1", bytes("never"), crc32c(bytes("never")));
    const gate = shared(put.gate);
    await expect(put.gate.durable).rejects.toThrow();
    await expect(put.written).rejects.toThrow();
    expect(gate.words().failed).not.toBe(0n);
    expect(gate.words().durable).toBeLessThan(BigInt(gate.sequence));
    expect(log.whenWritten("c/1")).toBeUndefined();
    expect(await log.read("c/1", undefined)).toBeUndefined();
  });
});

describe("FileSystemObjectStore.accelerations.putIfAbsentGated", () => {
  it("returns a gate that opens (shared words and promise) once done resolves; get and head issued before done wait for the write", async () => {
    const store = openStore(await newRoot());
    const body = sized(1500, 7);
    const put = started(await store.accelerations.putIfAbsentGated("wal/one", body));
    // Issued before done settles: both wait for the write instead of missing the object.
    const got = store.get("wal/one");
    const head = store.head("wal/one");
    const ranged = store.get("wal/one", { offset: 1000, length: 500 });
    expect(await put.done).toEqual({ created: true });
    await put.gate.durable;
    const gate = shared(put.gate);
    expect(gate.words().durable).toBeGreaterThanOrEqual(BigInt(gate.sequence));
    expect(gate.words().failed).toBe(0n);
    expect(await got).toEqual(body);
    expect(await ranged).toEqual(body.subarray(1000, 1500));
    expect(await head).toEqual({ key: "wal/one", size: 1500, crc32c: crc32c(body) });
    // It is an ordinary object afterwards: create-only, listed, and still there after a reopen.
    expect(await store.putIfAbsent("wal/one", bytes("other"))).toEqual({ created: false });
    expect((await store.list("wal/")).items).toEqual([{ key: "wal/one", size: 1500 }]);
  });

  it("a get issued right after the call returns the exact bytes, for many concurrent gated puts", async () => {
    const root = await newRoot();
    const store = openStore(root);
    const bodies = Array.from({ length: 12 }, (_, index) => sized(300 + index * 37, index));
    const puts = await Promise.all(
      bodies.map((body, index) => store.accelerations.putIfAbsentGated(`many/${String(index)}`, body)),
    );
    const reads = puts.map((_, index) => store.get(`many/${String(index)}`));
    const heads = puts.map((_, index) => store.head(`many/${String(index)}`));
    for (const [index, read] of reads.entries()) expect(await read).toEqual(bodies[index]);
    for (const [index, head] of heads.entries())
      expect(await head).toMatchObject({ size: bodies[index]?.length, crc32c: crc32c(bodies[index] ?? bytes("")) });
    const gates = puts.map((put) => started(put));
    await Promise.all(gates.map((put) => put.gate.durable));
    const highest = Math.max(...gates.map((put) => shared(put.gate).sequence));
    for (const put of gates) expect(shared(put.gate).words().durable).toBeGreaterThanOrEqual(BigInt(highest));
    await store.close();
    const reopened = openStore(root);
    for (const [index, body] of bodies.entries()) expect(await reopened.get(`many/${String(index)}`)).toEqual(body);
  });

  it("works with a body from allocateBody (shared memory), and the memory is reused after done and release", async () => {
    const store = openStore(await newRoot());
    const body = store.accelerations.allocateBody(2000);
    body.set(sized(2000, 9));
    const put = started(await store.accelerations.putIfAbsentGated("pooled/1", body));
    expect(await store.get("pooled/1")).toEqual(sized(2000, 9));
    await put.done;
    await put.gate.durable;
    store.accelerations.releaseBody(body);
    expect(store.accelerations.allocateBody(2000).buffer).toBe(body.buffer);
  });

  it("starts nothing without the segment layout", async () => {
    const root = await newRoot();
    const store = openStore(root, "off");
    expect(await store.accelerations.putIfAbsentGated("plain/1", bytes("x"))).toBeUndefined();
    expect(await store.head("plain/1")).toBeUndefined();
    const disabled = openStore(await newRoot(), false);
    expect(await disabled.accelerations.putIfAbsentGated("plain/2", bytes("y"))).toBeUndefined();
    expect(await disabled.head("plain/2")).toBeUndefined();
    expect((await disabled.list("")).items).toEqual([]);
  });

  it("starts nothing for a body above maxObjectBytes (the key stays free)", async () => {
    const store = openStore(await newRoot(), { segmentBytes: 4096, maxObjectBytes: 1000, compactBelow: 0 });
    expect(await store.accelerations.putIfAbsentGated("big/1", sized(1001, 1))).toBeUndefined();
    expect(await store.head("big/1")).toBeUndefined();
    expect(store.segmentStats?.records).toBe(0);
    // At the limit it is gated.
    const atLimit = started(await store.accelerations.putIfAbsentGated("big/2", sized(1000, 2)));
    await atLimit.gate.durable;
    expect(await store.get("big/2")).toEqual(sized(1000, 2));
    // The key refused above is still free for an ordinary put.
    expect(await store.putIfAbsent("big/1", sized(1001, 1))).toEqual({ created: true });
  });

  it("starts nothing for a key already put (segment or file) and leaves its bytes alone", async () => {
    const root = await newRoot();
    const legacy = new FileSystemObjectStore({ root });
    await legacy.putIfAbsent("taken/file", bytes("as a file"));
    await legacy.close();
    const store = openStore(root, { segmentBytes: 4096, maxObjectBytes: 1000, compactBelow: 0 });
    await store.putIfAbsent("taken/segment", bytes("in a segment"));
    await store.putIfAbsent("taken/large", sized(1200, 1));
    const gated = started(await store.accelerations.putIfAbsentGated("taken/gated", bytes("gated first")));
    await gated.done;
    const records = store.segmentStats?.records;
    for (const key of ["taken/file", "taken/segment", "taken/large", "taken/gated"]) {
      expect(await store.accelerations.putIfAbsentGated(key, bytes("second"))).toBeUndefined();
    }
    expect(store.segmentStats?.records).toBe(records);
    expect(new TextDecoder().decode(await store.get("taken/file"))).toBe("as a file");
    expect(new TextDecoder().decode(await store.get("taken/segment"))).toBe("in a segment");
    expect(await store.get("taken/large")).toEqual(sized(1200, 1));
    expect(new TextDecoder().decode(await store.get("taken/gated"))).toBe("gated first");
  });

  it("starts nothing for a key whose gated or ordinary put is still in flight", async () => {
    const store = openStore(await newRoot());
    await store.open();
    const first = store.accelerations.putIfAbsentGated("busy/1", bytes("first"));
    const second = store.accelerations.putIfAbsentGated("busy/1", bytes("second"));
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBeDefined();
    expect(b).toBeUndefined();
    expect(await started(a).done).toEqual({ created: true });
    expect(new TextDecoder().decode(await store.get("busy/1"))).toBe("first");

    // Started and not awaited: the second call sees the first one's claim.
    const gated = started(await store.accelerations.putIfAbsentGated("busy/2", bytes("gated")));
    expect(await store.accelerations.putIfAbsentGated("busy/2", bytes("again"))).toBeUndefined();
    await gated.done;
    expect(new TextDecoder().decode(await store.get("busy/2"))).toBe("gated");

    // An ordinary put in flight holds the key too.
    const ordinary = store.putIfAbsent("busy/3", bytes("ordinary"));
    const during = await store.accelerations.putIfAbsentGated("busy/3", bytes("gated"));
    expect(await ordinary).toEqual({ created: true });
    expect(during).toBeUndefined();
    expect(new TextDecoder().decode(await store.get("busy/3"))).toBe("ordinary");
    // And an ordinary put of a key whose gated put is in flight reports it taken.
    const gatedFirst = started(await store.accelerations.putIfAbsentGated("busy/4", bytes("gated")));
    expect(await store.putIfAbsent("busy/4", bytes("ordinary"))).toEqual({ created: false });
    expect(await gatedFirst.done).toEqual({ created: true });
    expect(new TextDecoder().decode(await store.get("busy/4"))).toBe("gated");
  });

  it("fails the gate when the segment layout fails, never showing the sequence durable", async () => {
    const root = await newRoot();
    const store = openStore(root);
    await store.open();
    // The layout has not created its first segment yet; a file at that name makes the create-only open fail.
    const directory = path.join(root, "segments");
    expect((await readdir(directory)).filter((name) => name.endsWith(".nsr"))).toEqual([]);
    await writeFile(path.join(directory, segmentFileName(1)), "in the way");
    const put = started(await store.accelerations.putIfAbsentGated("fail/1", bytes("lost")));
    const gate = shared(put.gate);
    const got = store.get("fail/1");
    const head = store.head("fail/1");
    await expectNereusError(put.gate.durable, ErrorCode.OBJECT_UPLOAD_FAILED);
    await expectNereusError(put.done, ErrorCode.OBJECT_UPLOAD_FAILED);
    expect(gate.words().failed).not.toBe(0n);
    expect(gate.words().durable).toBeLessThan(BigInt(gate.sequence));
    await expectNereusError(got, ErrorCode.OBJECT_NOT_FOUND);
    expect(await head).toBeUndefined();
    // The layout refuses later gated puts.
    await expectNereusError(store.accelerations.putIfAbsentGated("fail/2", bytes("x")), ErrorCode.OBJECT_UPLOAD_FAILED);
    expect(gate.words().durable).toBeLessThan(BigInt(gate.sequence));
  });

  it("a gated put refused by a failed layout does not pin its allocateBody memory", async () => {
    const root = await newRoot();
    const store = openStore(root);
    await store.open();
    await writeFile(path.join(root, "segments", segmentFileName(1)), "in the way");
    const failed = started(await store.accelerations.putIfAbsentGated("pin/1", bytes("lost")));
    await expect(failed.done).rejects.toThrow();
    const body = store.accelerations.allocateBody(100);
    body.set(sized(100, 4));
    await expect(store.accelerations.putIfAbsentGated("pin/2", body)).rejects.toThrow(NereusError);
    store.accelerations.releaseBody(body);
    // Released and no put of it in flight: the pool hands the same memory out again.
    expect(store.accelerations.allocateBody(100).buffer).toBe(body.buffer);
  });
});
