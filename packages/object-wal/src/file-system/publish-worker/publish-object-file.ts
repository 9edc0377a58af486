// One publish job of a publish worker: write the temp file (header + body, or a registered shared body), fsync it,
// link(2) it to its key's path (create-only: EEXIST means the key exists), fsync the directory, unlink the temp
// name — one job instead of ~9 asynchronous calls. Creates missing directories (fsyncing each parent) and
// remembers which exist, so most publishes skip the mkdir.
import fs from "node:fs";
import path from "node:path";
import type { PublishOutcome } from "./publish-jobs.js";
import type { PublishJobMessage } from "./publish-worker-protocol.js";
import type { SharedBodies } from "./shared-bodies.js";
import { fsyncDirectory, toPublishError, writeAll } from "./sync-file-io.js";

/** link() attempts when the target directory vanished in between (pruned by a concurrent delete). */
const MAX_LINK_ATTEMPTS = 8;
/** Directories remembered as existing; the set starts over beyond this many. */
const MAX_KNOWN_DIRECTORIES = 65536;

/** See the module comment. */
export class ObjectFilePublisher {
  readonly #bodies: SharedBodies;
  readonly #knownDirectories = new Set<string>();

  constructor(bodies: SharedBodies) {
    this.#bodies = bodies;
  }

  /**
   * Publishes `job`. Throws the failing system call's error up to the link; after it, a failed directory fsync is
   * the outcome `linked-unsynced`. The temp name is unlinked either way, unless writing it failed (the caller does).
   */
  publish(job: PublishJobMessage): PublishOutcome {
    const fd = fs.openSync(job.temporary, "wx", 0o644);
    try {
      if (job.memory !== undefined) {
        writeAll(fd, this.#bodies.bytes(job.memory).subarray(0, job.memory.length), 0);
      } else {
        writeAll(fd, job.header, 0);
        writeAll(fd, job.body, job.header.length);
      }
      if (job.fsync) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      const directory = path.dirname(job.target);
      for (let attempt = 1; ; attempt++) {
        try {
          if (!this.#knownDirectories.has(directory)) {
            makeDirectories(directory);
            if (this.#knownDirectories.size >= MAX_KNOWN_DIRECTORIES) this.#knownDirectories.clear();
            this.#knownDirectories.add(directory);
          }
          fs.linkSync(job.temporary, job.target);
          break;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "EEXIST") return { kind: "published", created: false };
          if (code === "ENOENT" && attempt < MAX_LINK_ATTEMPTS) {
            this.#knownDirectories.delete(directory);
            continue;
          }
          // An odd failure may still have published the file: it is ours iff it is our temp file's inode.
          if (sameFile(job.target, job.temporary)) break;
          throw error;
        }
      }
      if (job.fsync) {
        try {
          fsyncDirectory(directory);
        } catch (error) {
          return { kind: "linked-unsynced", error: toPublishError(error) };
        }
      }
      return { kind: "published", created: true };
    } finally {
      try {
        fs.unlinkSync(job.temporary);
      } catch {
        // Already gone: nothing to clean up.
      }
    }
  }
}

/** mkdir -p `directory`, fsyncing the parent of every directory it created (a missing parent is not an error). */
function makeDirectories(directory: string): void {
  const first = fs.mkdirSync(directory, { recursive: true });
  if (first === undefined) return;
  for (let current = directory; ; current = path.dirname(current)) {
    try {
      fsyncDirectory(path.dirname(current));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (current === first || current === path.dirname(current)) return;
  }
}

/** Whether `a` and `b` name the same inode (false when either cannot be stat'ed). */
function sameFile(a: string, b: string): boolean {
  try {
    const left = fs.statSync(a);
    const right = fs.statSync(b);
    return left.ino === right.ino && left.dev === right.dev;
  } catch {
    return false;
  }
}
