// Room for opening the SQLite metadata store on a full disk. Opening a database in WAL mode maps its `-shm` index
// (32 KiB per region), and SQLite allocates that file's blocks before it uses them: with no space left, the open fails
// (SQLITE_IOERR_SHMSIZE) although every byte of the database is there to read. So the store keeps a small file of
// zeros beside the database (`<path>-reserve`): an open that fails for lack of space removes it and tries once more,
// and an open with room (re)creates it. The reserve helps one open on a full volume; it is not a quota.
import { open, unlink } from "node:fs/promises";

/** Bytes the reserve holds: the `-shm` index of a large database and the first pages of the `-wal`, with room to spare. */
const SPACE_RESERVE_BYTES = 256 * 1024;

/** SQLite result codes and errno codes of an open that failed for lack of space. */
const NO_SPACE = /^(SQLITE_FULL|SQLITE_IOERR_SHMSIZE|SQLITE_IOERR_WRITE|SQLITE_IOERR_TRUNCATE|ENOSPC|EDQUOT)$/;

/** The reserve file of the database at `database`. */
function spaceReservePath(database: string): string {
  return `${database}-reserve`;
}

/** Whether `error` (from better-sqlite3 or node:fs) says the disk is full. */
export function isNoSpaceError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && NO_SPACE.test(code);
}

/** Removes the reserve of `database`; true when there was one (its room is free now). */
export async function releaseSpaceReserve(database: string): Promise<boolean> {
  try {
    await unlink(spaceReservePath(database));
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates the reserve of `database` unless it exists. Best effort: on a full disk (or any failure) it leaves no
 * partial file and returns false.
 */
export async function ensureSpaceReserve(database: string): Promise<boolean> {
  const file = spaceReservePath(database);
  let handle;
  try {
    handle = await open(file, "wx");
  } catch (error) {
    return (error as { code?: unknown }).code === "EEXIST";
  }
  try {
    // A short write (the disk filled up part-way) counts as a failure: a partial reserve would hold the last free
    // blocks without being enough for an open.
    const { bytesWritten } = await handle.write(new Uint8Array(SPACE_RESERVE_BYTES), 0, SPACE_RESERVE_BYTES, 0);
    if (bytesWritten !== SPACE_RESERVE_BYTES)
      throw new Error(`wrote ${String(bytesWritten)} of ${String(SPACE_RESERVE_BYTES)} bytes`);
    await handle.sync();
    await handle.close();
    return true;
  } catch {
    await handle.close().catch(() => undefined);
    await unlink(file).catch(() => undefined);
    return false;
  }
}
