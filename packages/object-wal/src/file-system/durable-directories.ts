// Directory durability helpers of the filesystem store (both layouts): a new directory entry survives a crash only
// once its parent directory is fsynced.
import { mkdir, open } from "node:fs/promises";
import path from "node:path";

/** mkdir -p that fsyncs the parent of every directory it created, so new directories survive a crash. */
export async function makeDirectories(directory: string): Promise<void> {
  const first = await mkdir(directory, { recursive: true });
  if (first === undefined) return;
  for (let current = directory; ; current = path.dirname(current)) {
    await fsyncDirectory(path.dirname(current)).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== "ENOENT") throw error;
    });
    if (current === first || current === path.dirname(current)) return;
  }
}

/** fsync(2) of a directory: makes the creation, renaming or removal of its entries durable. */
export async function fsyncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
