// One writer per segment directory: `<directory>/LOCK` names the owner's pid, created exclusively. Two stores
// appending to one segment file would overwrite each other's records, so a second open fails — in this process at
// once (a registry of held directories), in another process when its pid is alive. A lock whose pid is gone
// (kill -9), or is this process's without a registration (a previous run that had the same pid), is taken over.
// The lock is a symbolic link whose target is the pid: creating it needs no data block (a short link target is kept
// in the inode), so the store opens on a full disk too. A regular file holding the pid (older stores) is read too.
import { readFile, readlink, rm, symlink } from "node:fs/promises";
import path from "node:path";
import { ErrorCode, NereusError } from "@nereus/core";

const held = new Set<string>();

/** A held lock; `release` is idempotent. */
export interface SegmentLock {
  release(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function inUse(directory: string, owner: string): NereusError {
  return new NereusError(
    ErrorCode.INVALID_ARGUMENT,
    `segment directory ${directory} is in use by ${owner}; one store may write it at a time`,
    {
      retryable: false,
      details: { directory },
    },
  );
}

/** Takes the lock of `directory` (which must exist). Throws INVALID_ARGUMENT naming the owner when it is held. */
export async function lockSegmentDirectory(directory: string): Promise<SegmentLock> {
  const resolved = path.resolve(directory);
  if (held.has(resolved)) throw inUse(resolved, "another store of this process");
  held.add(resolved);
  const file = path.join(resolved, "LOCK");
  try {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        await symlink(String(process.pid), file);
        let released = false;
        return {
          async release() {
            if (released) return;
            released = true;
            held.delete(resolved);
            await rm(file, { force: true });
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const owner = Number.parseInt((await lockOwner(file)).trim(), 10);
        if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && alive(owner))
          throw inUse(resolved, `process ${String(owner)}`);
        await rm(file, { force: true });
      }
    }
    throw inUse(resolved, "a store that keeps re-creating its lock");
  } catch (error) {
    held.delete(resolved);
    throw error;
  }
}

/** The pid a lock names: a link's target, or a regular file's contents (empty when neither can be read). */
async function lockOwner(file: string): Promise<string> {
  try {
    return await readlink(file);
  } catch {
    return readFile(file, "utf8").catch(() => "");
  }
}
