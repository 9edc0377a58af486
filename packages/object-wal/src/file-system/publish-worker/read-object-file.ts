// One read job of a publish worker: open the object file, fstat it, read its header and the requested range of its
// body, close it — one job instead of five asynchronous calls. The bytes land in a lent read chunk when one is free
// (read-chunks.ts), else in a buffer of their own that is transferred to the main thread.
import fs from "node:fs";
import type { ReadJob } from "./publish-jobs.js";
import type { WorkerReadOutcome } from "./publish-worker-protocol.js";
import type { ReadChunks } from "./read-chunks.js";
import { readAll } from "./sync-file-io.js";

/**
 * Reads `job` (the header, and `length` bytes at body offset `offset`: fewer when the file is shorter). Throws the
 * failing system call's error; a chunk taken for it is released first.
 */
export function readObjectFile(job: ReadJob, chunks: ReadChunks): WorkerReadOutcome {
  const fd = fs.openSync(job.path, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const header = new Uint8Array(Math.min(job.headerBytes, size));
    readAll(fd, header, 0);
    const bodySize = Math.max(0, size - job.headerBytes);
    const wanted = job.length === undefined ? bodySize : job.length;
    // Not zero-filled first (the read overwrites it); a short read zeroes the tail nobody was given.
    const length = Math.max(0, Math.min(wanted, bodySize - job.offset));
    const chunk = chunks.take(length);
    if (chunk !== undefined) {
      const buffer = chunks.buffer(chunk);
      let filled: number;
      try {
        filled = readAll(fd, new Uint8Array(buffer, 0, length), job.headerBytes + job.offset);
      } catch (error) {
        chunks.release(chunk);
        throw error;
      }
      return { kind: "read", header, bodySize, lent: { chunk, buffer, length: filled } };
    }
    const bytes = new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
    const filled = readAll(fd, bytes, job.headerBytes + job.offset);
    if (filled === bytes.length) return { kind: "read", header, bodySize, bytes };
    bytes.fill(0, filled);
    return { kind: "read", header, bodySize, bytes: bytes.subarray(0, filled) };
  } finally {
    fs.closeSync(fd);
  }
}
