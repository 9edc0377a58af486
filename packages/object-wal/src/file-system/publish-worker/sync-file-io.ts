// Blocking file I/O helpers of the publish worker thread: positional writes and reads that loop until done, and
// a directory fsync. Synchronous on purpose: they run on a worker thread, where one job is a run of system calls
// with no event-loop turn between them. Errors are the system calls' own (with their errno `code`).
import fs from "node:fs";
import type { PublishError } from "./publish-jobs.js";

/** Writes all of `bytes` at `position` (looping over short writes). */
export function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  for (let written = 0; written < bytes.length;) {
    written += fs.writeSync(fd, bytes, written, bytes.length - written, position + written);
  }
}

/** Reads into `bytes` from `position` until it is full or the file ends; returns the bytes read. */
export function readAll(fd: number, bytes: Uint8Array, position: number): number {
  let filled = 0;
  while (filled < bytes.length) {
    const count = fs.readSync(fd, bytes, filled, bytes.length - filled, position + filled);
    if (count === 0) break;
    filled += count;
  }
  return filled;
}

/** fsyncs `directory` (makes the names created or removed in it durable). */
export function fsyncDirectory(directory: string): void {
  const fd = fs.openSync(directory, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** A failure as it crosses back to the pool: its errno `code` ("UNKNOWN" without one) and message. */
export function toPublishError(error: unknown): PublishError {
  const { code, message } = (error ?? {}) as { readonly code?: unknown; readonly message?: unknown };
  return { code: typeof code === "string" ? code : "UNKNOWN", message: String(message) };
}

/** An Error with errno-style `code`, for failures the worker detects itself. */
export function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}
