// One broker per data directory, held by an operating-system lock that dies with the process.
//
// The lock is `<dataDir>/broker.lock.sqlite`, a SQLite database the broker opens with `locking_mode=EXCLUSIVE` and
// keeps inside an open `BEGIN EXCLUSIVE` transaction for its whole life. SQLite takes that as a POSIX record lock
// (fcntl) on the file, which the kernel drops the moment the process ends, however it ends (kill -9, an OOM kill):
// the next broker gets the lock at once. Nothing depends on process ids, so a restarted broker that gets the same
// pid as its dead predecessor (PID 1 in a container, every time) is not mistaken for a live owner. The journal is
// kept in memory, so taking the lock writes nothing (an empty database file at most): a broker starts on a full
// disk too. Native addons are not needed beyond better-sqlite3, which the embedded metadata store uses already.
// POSIX record locks work across containers sharing a volume on one host and over NFS with its lock manager.
//
// Who holds the lock is recorded beside it for error messages only: `<dataDir>/broker.lock`, a symbolic link whose
// target is `<pid>@<host>` (a link needs no data block). It is never used to decide anything.
import { accessSync, constants, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { StartupError } from "../errors/startup-error.js";

/** A held data-directory lock. */
export interface DataDirLock {
  /** The lock file (the SQLite database holding the OS lock). */
  readonly file: string;
  /** Releases the lock (idempotent). The process's end releases it too. */
  release(): void;
}

const LOCK_FILE = "broker.lock.sqlite";
const OWNER_FILE = "broker.lock";

function usableDirectory(dataDir: string): void {
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
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";
}

/** Opens the lock database and takes its exclusive lock; undefined when another process (or connection) holds it. */
function takeOsLock(file: string): Database.Database | undefined {
  const database = new Database(file, { timeout: 0 });
  try {
    database.pragma("journal_mode = MEMORY");
    database.pragma("locking_mode = EXCLUSIVE");
    database.exec("BEGIN EXCLUSIVE");
    return database;
  } catch (error) {
    database.close();
    if (isBusy(error)) return undefined;
    throw error;
  }
}

/** The holder as it recorded itself (`<pid>@<host>`), or undefined when unreadable. */
function recordedOwner(dataDir: string): string | undefined {
  const file = path.join(dataDir, OWNER_FILE);
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
}

function describeOwner(owner: string | undefined): string {
  if (owner === undefined || owner === "") return "";
  const [pid, host] = owner.split("@");
  return host === undefined ? ` (pid ${pid ?? owner})` : ` (pid ${pid ?? "?"} on ${host})`;
}

/** Records this process as the holder; best effort (a full disk may refuse even a link). */
function recordOwner(dataDir: string): string {
  const owner = `${String(process.pid)}@${hostname()}`;
  const file = path.join(dataDir, OWNER_FILE);
  try {
    rmSync(file, { force: true });
    symlinkSync(owner, file);
  } catch {
    // Informational only.
  }
  return owner;
}

/**
 * Creates `dataDir` if needed, checks it is usable and takes its lock. Throws {@link StartupError} when the
 * directory is unusable or another live process holds the lock (the message names the holder as it recorded
 * itself). Invariant: while the returned lock is held, no other process or `lockDataDir` call gets it.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  usableDirectory(dataDir);
  const file = path.join(dataDir, LOCK_FILE);
  let database: Database.Database | undefined;
  try {
    database = takeOsLock(file);
  } catch (error) {
    const reason = (error as { code?: unknown }).code ?? (error as Error).message;
    throw new StartupError(
      `cannot take the lock ${file} (${String(reason)}); if no broker runs on this directory, remove that file`,
      { cause: error },
    );
  }
  if (database === undefined) {
    throw new StartupError(
      `data directory ${dataDir} is in use by another broker${describeOwner(recordedOwner(dataDir))}; stop it or choose another --data-dir`,
    );
  }
  const owner = recordOwner(dataDir);
  const held = database;
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      try {
        if (recordedOwner(dataDir) === owner) rmSync(path.join(dataDir, OWNER_FILE), { force: true });
      } catch {
        // Informational only.
      } finally {
        held.close();
      }
    },
  };
}
