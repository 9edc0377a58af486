// One broker per data directory: `<dataDir>/broker.lock` holds the owner's pid, created exclusively. A lock left
// by a process that no longer exists (kill -9) is taken over; a live owner makes start-up fail with its pid.
// The lock is advisory protection against two embedded brokers sharing one SQLite file and object directory;
// correctness across processes still rests on the stores' own fencing. The lock is a symbolic link whose target is
// the pid: creating it needs no data block, so a broker starts on a full disk too (a regular file holding the pid,
// left by an older broker, is read as well).
import { mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, accessSync, constants } from "node:fs";
import path from "node:path";
import { StartupError } from "../errors/startup-error.js";

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Creates `dataDir` if needed, checks it is writable and takes its lock. Throws StartupError otherwise. */
export function lockDataDir(dataDir: string): DataDirLock {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new StartupError(
      `data directory ${dataDir} is not usable (${code}): choose another --data-dir or fix its permissions`,
      { cause: error },
    );
  }
  const file = path.join(dataDir, "broker.lock");
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      symlinkSync(String(process.pid), file);
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          try {
            if (lockOwner(file).trim() === String(process.pid)) rmSync(file, { force: true });
          } catch {
            // Already gone.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new StartupError(
          `cannot create the lock file ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
          { cause: error },
        );
      }
      let owner = Number.NaN;
      try {
        owner = Number.parseInt(lockOwner(file).trim(), 10);
      } catch {
        // Unreadable: treat as stale.
      }
      if (Number.isSafeInteger(owner) && owner > 0 && (owner === process.pid || alive(owner))) {
        throw new StartupError(
          `data directory ${dataDir} is in use by another broker (pid ${String(owner)}); stop it or choose another --data-dir`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new StartupError(`cannot take the lock file ${file}`);
}

/** The pid a lock names: a link's target, or a regular file's contents. Throws when neither can be read. */
function lockOwner(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return readFileSync(file, "utf8");
  }
}
