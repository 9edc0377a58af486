// One writer per segment directory: `<directory>/LOCK` holds the owner's pid, created exclusively. Two stores
// appending to one segment file would overwrite each other's records, so a second open fails — in this process at
// once (a registry of held directories), in another process when its pid is alive. A lock whose pid is gone
// (kill -9), or is this process's without a registration (a previous run that had the same pid), is taken over.
import { readFile, rm, writeFile } from "node:fs/promises";
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
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `segment directory ${directory} is in use by ${owner}; one store may write it at a time`, {
    retryable: false,
    details: { directory },
  });
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
        await writeFile(file, `${String(process.pid)}\n`, { flag: "wx" });
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
        const owner = Number.parseInt((await readFile(file, "utf8").catch(() => "")).trim(), 10);
        if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) throw inUse(resolved, `process ${String(owner)}`);
        await rm(file, { force: true });
      }
    }
    throw inUse(resolved, "a store that keeps re-creating its lock");
  } catch (error) {
    held.delete(resolved);
    throw error;
  }
}
