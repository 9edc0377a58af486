// A full disk under the segment layout: a segment write that fails with ENOSPC (injected at the worker, after part of
// a record reached the file) fails its put with a retryable error and marks the store not writable; the next append
// once the disk has room cuts the torn bytes off, writes, and the store is writable again, without a reopen. What was
// acknowledged before stays readable, and a reopen finds exactly the acknowledged records (no torn tail to cut).
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ErrorCode, crc32c } from "@nereus/core";
import { nereusRejectionOf } from "@nereus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { FilePublishPool } from "../publish-worker/file-publish-worker.js";
import type { SegmentWriteJob, SegmentWriteOutcome } from "../publish-worker/publish-jobs.js";
import { StoreWriteHealthTracker } from "../store-write-health.js";
import { SegmentLog } from "./segment-log.js";
import { segmentFileName } from "./segment-recovery.js";

const sized = (length: number, seed: number): Uint8Array =>
  Uint8Array.from({ length }, (_, index) => (index * 31 + seed) % 251);

/**
 * A real pool that, while `full` is set, lets the next job with records write only the head of its first record and
 * then answers ENOSPC, as a write that ran out of space part-way does.
 */
class FullDiskPool extends FilePublishPool {
  full = false;

  override async writeSegment(job: SegmentWriteJob): Promise<SegmentWriteOutcome> {
    const first = job.records[0];
    if (!this.full || first === undefined) return super.writeSegment(job);
    const torn = await super.writeSegment({ ...job, records: [{ head: first.head }], sync: false });
    expect(torn.kind).toBe("written");
    return { kind: "failed", error: { code: "ENOSPC", message: "ENOSPC: no space left on device, write" } };
  }
}

const roots: string[] = [];
const pools: FilePublishPool[] = [];
const logs: SegmentLog[] = [];

async function openLog(
  directory: string,
  pool: FilePublishPool,
  health?: StoreWriteHealthTracker,
): Promise<SegmentLog> {
  pools.push(pool);
  const log = await SegmentLog.open({
    directory,
    pool,
    fsync: true,
    segmentBytes: 64 * 1024,
    compactBelow: 0,
    ...(health === undefined ? {} : { health }),
  });
  logs.push(log);
  return log;
}

afterEach(async () => {
  for (const log of logs.splice(0)) await log.close();
  for (const pool of pools.splice(0)) await pool.close();
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

describe("SegmentLog on a full disk", () => {
  it("fails the write retryably, then writes again once there is room, without a reopen; a reopen finds exactly the acknowledged records", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "nereus-no-space-"));
    roots.push(root);
    const directory = path.join(root, "segments");
    const pool = new FullDiskPool(1);
    const health = new StoreWriteHealthTracker();
    const log = await openLog(directory, pool, health);
    const bodies = new Map([1, 2, 3, 4, 5].map((seed) => [`k/${String(seed)}`, sized(300 + seed, seed)]));
    const body = (key: string): Uint8Array => bodies.get(key) ?? new Uint8Array();
    expect(await log.put("k/1", body("k/1"), crc32c(body("k/1")))).toBe(true);
    expect(await log.put("k/2", body("k/2"), crc32c(body("k/2")))).toBe(true);
    const acknowledgedBytes = (await stat(path.join(directory, segmentFileName(1)))).size;

    pool.full = true;
    const failing = log.put("k/3", body("k/3"), crc32c(body("k/3")));
    const failed = await nereusRejectionOf(failing);
    expect(failed.code).toBe(ErrorCode.OBJECT_UPLOAD_FAILED);
    expect(failed.retryable).toBe(true);
    expect(health.current).toMatchObject({ writable: false, failing: ["segment-log"], failures: 1 });
    // The torn head is in the file for now; nothing of it is visible.
    expect((await stat(path.join(directory, segmentFileName(1)))).size).toBeGreaterThan(acknowledgedBytes);
    expect(log.info("k/3")).toBeUndefined();

    // Still full: the next append repairs the segment, tries, and fails retryably again.
    const again = await nereusRejectionOf(log.put("k/3", body("k/3"), crc32c(body("k/3"))));
    expect(again.retryable).toBe(true);
    expect(health.current).toMatchObject({ writable: false, failures: 2 });

    // Room again: the next appends (a gated one included) succeed without a reopen.
    pool.full = false;
    expect(await log.put("k/3", body("k/3"), crc32c(body("k/3")))).toBe(true);
    const gated = log.putGated("k/4", body("k/4"), crc32c(body("k/4")));
    await gated.gate.durable;
    expect(await gated.written).toBe(true);
    expect(await log.put("k/5", body("k/5"), crc32c(body("k/5")))).toBe(true);
    expect(health.current).toEqual({ writable: true });
    for (const key of bodies.keys()) expect(await log.read(key, undefined)).toEqual(body(key));

    await log.close();
    const reopened = await openLog(directory, new FilePublishPool(1));
    expect(reopened.recovered.truncated).toBeUndefined();
    for (const key of bodies.keys()) expect(await reopened.read(key, undefined)).toEqual(body(key));
    expect(reopened.list("k/", undefined, 10).map((item) => item.key)).toEqual([...bodies.keys()]);
  });

  it("gives up what was queued behind the failed write (not written, retryable) and writes what comes after", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "nereus-no-space-"));
    roots.push(root);
    const directory = path.join(root, "segments");
    const pool = new FullDiskPool(1);
    const log = await openLog(directory, pool);
    expect(await log.put("q/0", sized(100, 0), crc32c(sized(100, 0)))).toBe(true);
    pool.full = true;
    const first = log.putGated("q/1", sized(100, 1), crc32c(sized(100, 1)));
    // Queued in the same turn: goes out behind the failing job, or waits in the queue; either way it is not written.
    const behind = log.putGated("q/2", sized(100, 2), crc32c(sized(100, 2)));
    await expect(first.gate.durable).rejects.toThrow();
    await expect(behind.gate.durable).rejects.toThrow();
    expect((await nereusRejectionOf(behind.written)).retryable).toBe(true);
    pool.full = false;
    const after = log.putGated("q/3", sized(100, 3), crc32c(sized(100, 3)));
    await after.gate.durable;
    expect(await log.read("q/0", undefined)).toEqual(sized(100, 0));
    expect(await log.read("q/1", undefined)).toBeUndefined();
    expect(await log.read("q/2", undefined)).toBeUndefined();
    expect(await log.read("q/3", undefined)).toEqual(sized(100, 3));
  });
});
