import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FilePublishPool } from "./file-publish-worker.js";
import { FOLLOWER_REFUSED_CODE } from "./publish-jobs.js";

const roots: string[] = [];
const pools: FilePublishPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function setup(size = 2) {
  const root = await mkdtemp(path.join(tmpdir(), "nereus-publish-"));
  roots.push(root);
  await mkdir(path.join(root, "tmp"));
  const pool = new FilePublishPool(size);
  pools.push(pool);
  const job = (name: string, body: string, fsync = true) => ({
    temporary: path.join(root, "tmp", `${name}.tmp`),
    target: path.join(root, "objects", "a", "b", `${name}.obj`),
    header: new Uint8Array([1, 2, 3, 4]),
    body: new TextEncoder().encode(body),
    fsync,
  });
  return { root, pool, job };
}

describe("FilePublishPool", () => {
  it("writes header + body, links the file create-only and removes the temp name", async () => {
    const { root, pool, job } = await setup();
    expect(await pool.publish(job("x", "hello"))).toEqual({ kind: "published", created: true });
    expect([...(await readFile(path.join(root, "objects", "a", "b", "x.obj")))]).toEqual([
      1,
      2,
      3,
      4,
      ...new TextEncoder().encode("hello"),
    ]);
    expect(await pool.publish({ ...job("x", "other"), temporary: path.join(root, "tmp", "x2.tmp") })).toEqual({
      kind: "published",
      created: false,
    });
    expect((await readFile(path.join(root, "objects", "a", "b", "x.obj"))).subarray(4).toString()).toBe("hello");
    expect(await readdir(path.join(root, "tmp"))).toEqual([]);
  });

  it("runs many jobs across its workers, each exactly once", async () => {
    const { root, pool, job } = await setup(3);
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, index) => pool.publish(job(`k${String(index)}`, `v${String(index)}`))),
    );
    expect(outcomes.every((outcome) => outcome.kind === "published" && outcome.created)).toBe(true);
    expect((await readdir(path.join(root, "objects", "a", "b"))).length).toBe(40);
    expect(await readdir(path.join(root, "tmp"))).toEqual([]);
  });

  it("reports the failing system call's errno and leaves no temp file", async () => {
    const { root, pool, job } = await setup();
    await mkdir(path.join(root, "objects"), { recursive: true });
    await writeFile(path.join(root, "objects", "a"), "a file where a directory belongs");
    const outcome = await pool.publish(job("y", "data"));
    expect(outcome.kind).toBe("failed");
    if (outcome.kind === "failed") expect(outcome.error.code).toBe("ENOTDIR");
    expect(await readdir(path.join(root, "tmp"))).toEqual([]);
  });

  it("without fsync (os-buffered durability) still publishes create-only and cleans up", async () => {
    const { root, pool, job } = await setup();
    expect(await pool.publish(job("nf", "buffered", false))).toEqual({ kind: "published", created: true });
    expect(await pool.publish({ ...job("nf", "again", false), temporary: path.join(root, "tmp", "nf2.tmp") })).toEqual({
      kind: "published",
      created: false,
    });
    expect((await readFile(path.join(root, "objects", "a", "b", "nf.obj"))).subarray(4).toString()).toBe("buffered");
    expect(await readdir(path.join(root, "tmp"))).toEqual([]);
  });

  it("publishes from shared memory: the buffer crosses to a worker once, later jobs name it; forget drops it", async () => {
    const { root, pool, job } = await setup(1);
    const buffer = new SharedArrayBuffer(16);
    const bytes = new Uint8Array(buffer);
    bytes.set(new TextEncoder().encode("HDR!first"));
    const shared = (name: string, length: number) => ({ ...job(name, ""), memory: { id: 7, buffer, length } });
    expect(await pool.publish(shared("m1", 9))).toEqual({ kind: "published", created: true });
    bytes.set(new TextEncoder().encode("HDR!again"));
    expect(await pool.publish(shared("m2", 9))).toEqual({ kind: "published", created: true });
    expect((await readFile(path.join(root, "objects", "a", "b", "m1.obj"))).toString()).toBe("HDR!first");
    expect((await readFile(path.join(root, "objects", "a", "b", "m2.obj"))).toString()).toBe("HDR!again");
    pool.forget(7);
    bytes.set(new TextEncoder().encode("HDR!third"));
    expect(await pool.publish(shared("m3", 9))).toEqual({ kind: "published", created: true });
    expect((await readFile(path.join(root, "objects", "a", "b", "m3.obj"))).toString()).toBe("HDR!third");
  });

  it("reads the header and a range, or the whole body, of a file in one job", async () => {
    const { root, pool } = await setup();
    const file = path.join(root, "f.obj");
    await writeFile(file, Buffer.concat([Buffer.from([9, 8, 7, 6]), Buffer.from("0123456789")]));
    const range = await pool.read({ path: file, headerBytes: 4, offset: 3, length: 4 });
    expect(range.kind).toBe("read");
    if (range.kind !== "read") return;
    expect([...range.header]).toEqual([9, 8, 7, 6]);
    expect(range.bodySize).toBe(10);
    expect(new TextDecoder().decode(range.bytes)).toBe("3456");
    const whole = await pool.read({ path: file, headerBytes: 4, offset: 0, length: undefined });
    expect(whole.kind === "read" && new TextDecoder().decode(whole.bytes)).toBe("0123456789");
    // A range past the end returns what exists; the store turns that into its error.
    const past = await pool.read({ path: file, headerBytes: 4, offset: 8, length: 5 });
    expect(past.kind === "read" && new TextDecoder().decode(past.bytes)).toBe("89");
    const beyond = await pool.read({ path: file, headerBytes: 4, offset: 50, length: 5 });
    expect(beyond.kind === "read" && beyond.bytes.length).toBe(0);
    const tiny = path.join(root, "tiny.obj");
    await writeFile(tiny, Buffer.from([1, 2]));
    expect(await pool.read({ path: tiny, headerBytes: 4, offset: 0, length: undefined })).toMatchObject({
      kind: "read",
      bodySize: 0,
    });
  });

  it("sends the reads of one turn as one job, each answered with its own bytes or errno", async () => {
    const { root, pool } = await setup();
    const names = ["a", "b", "c", "d"];
    for (const name of names)
      await writeFile(
        path.join(root, `${name}.obj`),
        Buffer.concat([Buffer.from([0, 0]), Buffer.from(`body-${name}`)]),
      );
    const jobsBefore = pool.readJobs;
    const outcomes = await Promise.all([
      ...names.map((name) =>
        pool.read({ path: path.join(root, `${name}.obj`), headerBytes: 2, offset: 0, length: undefined }),
      ),
      pool.read({ path: path.join(root, "absent.obj"), headerBytes: 2, offset: 0, length: undefined }),
      pool.read({ path: path.join(root, "b.obj"), headerBytes: 2, offset: 5, length: 1 }),
    ]);
    expect(pool.readJobs - jobsBefore).toBe(1);
    expect(
      outcomes.map((outcome) =>
        outcome.kind === "read" ? new TextDecoder().decode(outcome.bytes) : outcome.error.code,
      ),
    ).toEqual(["body-a", "body-b", "body-c", "body-d", "ENOENT", "b"]);
  });

  it("reports a missing file's errno on read", async () => {
    const { root, pool } = await setup();
    expect(
      await pool.read({ path: path.join(root, "absent.obj"), headerBytes: 8, offset: 0, length: undefined }),
    ).toMatchObject({ kind: "failed", error: { code: "ENOENT" } });
  });

  it("opens a segment job's shared durability gate itself, once written and synced, and fails it when the job fails", async () => {
    const { root, pool } = await setup(1);
    const words = new SharedArrayBuffer(3 * 8);
    const view = new BigInt64Array(words);
    const segment = path.join(root, "segment-a.nsr");
    const record = { head: new Uint8Array([1, 2, 3]), body: new TextEncoder().encode("body") };
    const job = {
      path: segment,
      create: true,
      position: 0,
      records: [record],
      sync: true,
      syncDirectory: true,
      close: false,
      gate: { words, sequence: 5 },
    };
    // Only the worker touches these words here: what they show is what it did before answering.
    expect(await pool.writeSegment(job)).toEqual({ kind: "written", skipped: [] });
    expect([...view]).toEqual([5n, 0n, 1n]);
    // A lower sequence never lowers the durable word.
    expect(await pool.writeSegment({ ...job, create: false, position: 7, gate: { words, sequence: 3 } })).toEqual({
      kind: "written",
      skipped: [],
    });
    expect([...view]).toEqual([5n, 0n, 1n]);
    expect(await pool.writeSegment({ ...job, create: false, position: 14, gate: { words, sequence: 9 } })).toEqual({
      kind: "written",
      skipped: [],
    });
    expect([...view]).toEqual([9n, 0n, 2n]);
    expect((await readFile(segment)).length).toBe(21);
    // A failing job (create-only open of a file that exists) fails the gate and leaves the durable word alone.
    const failed = await pool.writeSegment({
      ...job,
      path: path.join(root, "segment-b.nsr"),
      close: true,
      gate: { words, sequence: 10 },
    });
    expect(failed).toEqual({ kind: "written", skipped: [] });
    const again = await pool.writeSegment({
      ...job,
      path: path.join(root, "segment-b.nsr"),
      gate: { words, sequence: 11 },
    });
    expect(again).toMatchObject({ kind: "failed", error: { code: "EEXIST" } });
    expect(view[0]).toBe(10n);
    expect(view[1]).not.toBe(0n);
    expect(view[2]).toBe(4n);
  });

  it("refuses a segment job that follows a failed one, writing nothing; a job that does not follow runs", async () => {
    const { root, pool } = await setup(1);
    const words = new SharedArrayBuffer(3 * 8);
    const view = new BigInt64Array(words);
    const segment = path.join(root, "segment-f.nsr");
    await writeFile(segment, "in the way");
    const record = { head: new Uint8Array([1, 2, 3]), body: new TextEncoder().encode("body") };
    const base = { path: segment, position: 0, records: [record], sync: true, syncDirectory: false, close: false };
    // Both sent before the first answers, as the segment log sends a job behind one in flight.
    const failing = pool.writeSegment({ ...base, create: true, gate: { words, sequence: 1 } });
    const following = pool.writeSegment({ ...base, create: false, follows: true, gate: { words, sequence: 2 } });
    expect(await failing).toMatchObject({ kind: "failed", error: { code: "EEXIST" } });
    expect(await following).toMatchObject({
      kind: "failed",
      error: { code: FOLLOWER_REFUSED_CODE, message: expect.stringContaining("before this one failed") },
    });
    expect(await readFile(segment, "utf8")).toBe("in the way");
    expect(view[0]).toBe(0n);
    expect(view[1]).not.toBe(0n);
    // A job that does not follow is judged on its own, and one that follows a success runs.
    expect(await pool.writeSegment({ ...base, create: false, position: 10 })).toEqual({ kind: "written", skipped: [] });
    expect(await pool.writeSegment({ ...base, create: false, position: 17, follows: true })).toEqual({
      kind: "written",
      skipped: [],
    });
    expect((await readFile(segment)).length).toBe(24);
  });

  it("times its workers' segment writes, their fdatasyncs, published object files and reads in shared histograms", async () => {
    const { root, pool, job } = await setup(1);
    expect(pool.timings().segmentWrite.count).toBe(0);
    const segment = path.join(root, "segment-t.nsr");
    const record = { head: new Uint8Array([1, 2, 3]), body: new TextEncoder().encode("body") };
    const write = {
      path: segment,
      create: true,
      position: 0,
      records: [record],
      sync: true,
      syncDirectory: false,
      close: false,
    };
    expect(await pool.writeSegment(write)).toEqual({ kind: "written", skipped: [] });
    // Without fsync (os-buffered) the write is timed, no sync is.
    expect(await pool.writeSegment({ ...write, create: false, position: 7, sync: false })).toEqual({
      kind: "written",
      skipped: [],
    });
    // Sealing a segment writes no record: only its sync counts.
    expect(await pool.writeSegment({ ...write, create: false, position: 14, records: [], close: true })).toEqual({
      kind: "written",
      skipped: [],
    });
    expect(await pool.publish(job("timed", "payload"))).toEqual({ kind: "published", created: true });
    // A publish that finds its key taken published nothing.
    expect(await pool.publish(job("timed", "other"))).toEqual({ kind: "published", created: false });
    expect(await pool.read({ path: segment, headerBytes: 3, offset: 0, length: 4 })).toMatchObject({ kind: "read" });
    // A read that failed (no such file) is not timed.
    expect(
      await pool.read({ path: path.join(root, "missing.nsr"), headerBytes: 3, offset: 0, length: 4 }),
    ).toMatchObject({ kind: "failed" });
    const timings = pool.timings();
    expect(timings.segmentWrite.count).toBe(2);
    expect(timings.segmentSync.count).toBe(2);
    expect(timings.objectPublish.count).toBe(1);
    expect(timings.objectRead.count).toBe(1);
    for (const snapshot of Object.values(timings)) {
      expect(snapshot.sumSeconds).toBeGreaterThan(0);
      expect(snapshot.buckets.at(-1)).toEqual({ le: Number.POSITIVE_INFINITY, count: snapshot.count });
    }
  });

  it("fails a job cleanly once closed, and rejects a bad size", async () => {
    const { pool, job } = await setup();
    await pool.close();
    expect(await pool.publish(job("z", "late"))).toMatchObject({ kind: "failed", error: { code: "ECLOSED" } });
    expect(() => new FilePublishPool(0)).toThrow(RangeError);
  });
});
