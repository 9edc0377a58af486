// The segment jobs of the publish worker that writes segments (the pool sends them all to its first worker): each
// appends records at a position of one segment file, optionally fdatasyncs it and its directory, and opens the
// job's shared durability gate once every write and sync succeeded — before the reply — or fails the gate when the
// job failed. The active segment stays open between jobs. A job sent with `follows` is refused (nothing written)
// when the job before it failed, so no write lands after a failed one.
import fs from "node:fs";
import path from "node:path";
import { DurabilityGateWord, type SharedDurabilityGate, type SharedLatencyHistogram } from "@nereus/core";
import { FOLLOWER_REFUSED_CODE, type SegmentWriteOutcome } from "./publish-jobs.js";
import type { SegmentWriteJobMessage, SegmentWriteRecordMessage } from "./publish-worker-protocol.js";
import type { SharedBodies } from "./shared-bodies.js";
import { codedError, fsyncDirectory, toPublishError, writeAll } from "./sync-file-io.js";

/** See the module comment. Jobs run one at a time, in the order they arrive. */
export class SegmentFileWriter {
  readonly #bodies: SharedBodies;
  readonly #timings: { readonly write: SharedLatencyHistogram; readonly sync: SharedLatencyHistogram };
  #segment: { readonly path: string; readonly fd: number } | undefined;
  /** Whether the last job failed (or was refused): a job that follows it is refused too. */
  #lastJobFailed = false;

  constructor(
    bodies: SharedBodies,
    timings: { readonly write: SharedLatencyHistogram; readonly sync: SharedLatencyHistogram },
  ) {
    this.#bodies = bodies;
    this.#timings = timings;
  }

  /** Runs `job`: its outcome, with the failing system call's errno when it failed (the segment is closed then). */
  run(job: SegmentWriteJobMessage): SegmentWriteOutcome {
    try {
      if (job.follows === true && this.#lastJobFailed)
        throw codedError(FOLLOWER_REFUSED_CODE, "the segment write before this one failed");
      this.#lastJobFailed = true;
      const outcome = this.#write(job);
      this.#lastJobFailed = false;
      if (job.gate !== undefined) openGate(job.gate);
      return outcome;
    } catch (error) {
      try {
        this.#close();
      } catch {
        // The job failed already; its error is the one to report.
      }
      if (job.gate !== undefined) failGate(job.gate);
      return { kind: "failed", error: toPublishError(error) };
    }
  }

  #write(job: SegmentWriteJobMessage): SegmentWriteOutcome {
    const started = process.hrtime.bigint();
    if (this.#segment === undefined || this.#segment.path !== job.path) {
      this.#close();
      this.#segment = { path: job.path, fd: fs.openSync(job.path, job.create ? "wx" : "r+", 0o644) };
    }
    const fd = this.#segment.fd;
    let position = job.position;
    const skipped: number[] = [];
    for (let index = 0; index < job.records.length; index++) {
      const record = job.records[index] as SegmentWriteRecordMessage;
      if (record.unlessFile !== undefined && fs.existsSync(record.unlessFile)) {
        skipped.push(index);
        continue;
      }
      writeAll(fd, record.head, position);
      position += record.head.length;
      const memory = record.memory;
      const body =
        memory === undefined
          ? record.body
          : this.#bodies.bytes(memory).subarray(memory.start, memory.start + memory.length);
      if (body !== undefined) {
        writeAll(fd, body, position);
        position += body.length;
      }
    }
    const written = process.hrtime.bigint();
    if (job.records.length > 0) this.#timings.write.observeNanos(written - started);
    if (job.sync) {
      fs.fdatasyncSync(fd);
      this.#timings.sync.observeNanos(process.hrtime.bigint() - written);
    }
    if (job.syncDirectory) fsyncDirectory(path.dirname(job.path));
    if (job.close) this.#close();
    return { kind: "written", skipped };
  }

  #close(): void {
    if (this.#segment === undefined) return;
    const fd = this.#segment.fd;
    this.#segment = undefined;
    fs.closeSync(fd);
  }
}

/** Raises the gate's durable sequence to the job's (never lowers it) and wakes its waiters. */
function openGate(gate: SharedDurabilityGate): void {
  const view = new BigInt64Array(gate.words);
  const sequence = BigInt(gate.sequence);
  if (Atomics.load(view, DurabilityGateWord.durable) >= sequence) return;
  Atomics.store(view, DurabilityGateWord.durable, sequence);
  Atomics.add(view, DurabilityGateWord.changes, 1n);
  Atomics.notify(view, DurabilityGateWord.changes);
}

/** Marks the gate failed and wakes its waiters. */
function failGate(gate: SharedDurabilityGate): void {
  const view = new BigInt64Array(gate.words);
  Atomics.store(view, DurabilityGateWord.failed, 1n);
  Atomics.add(view, DurabilityGateWord.changes, 1n);
  Atomics.notify(view, DurabilityGateWord.changes);
}
