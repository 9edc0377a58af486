// Puts the active segment back in a known state after a write failed for lack of space (ENOSPC, EDQUOT): such a
// write stored none or part of its records, never anything acknowledged, so cutting the file back to the length its
// last acknowledged record ends at (and syncing that) leaves exactly what recovery would keep, and the next write
// can go on at that offset. A segment that was never created is removed if the failed write created it. Other
// failures (EIO after fdatasync, say) leave the file's state unknown: they are not repaired here.
import { open, unlink } from "node:fs/promises";
import path from "node:path";
import { fsyncDirectory } from "../durable-directories.js";

/** errno codes of a write that failed for lack of space: what it wrote past the valid length can be cut off. */
const NO_SPACE = new Set(["ENOSPC", "EDQUOT"]);

/** Whether a segment write that failed with `errno` may be repaired by {@link repairSegmentTail}. */
export function isNoSpaceError(errno: string | undefined): boolean {
  return errno !== undefined && NO_SPACE.has(errno);
}

/**
 * Cuts segment `file` back to `length` bytes and fdatasyncs it; when the segment was not `created` yet, removes the
 * file (and syncs the directory) if the failed write left one. Needs no free space. Throws the system call's error.
 */
export async function repairSegmentTail(file: string, length: number, created: boolean): Promise<void> {
  if (!created) {
    try {
      await unlink(file);
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") return;
      throw error;
    }
    await fsyncDirectory(path.dirname(file));
    return;
  }
  const handle = await open(file, "r+");
  try {
    if ((await handle.stat()).size !== length) await handle.truncate(length);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
