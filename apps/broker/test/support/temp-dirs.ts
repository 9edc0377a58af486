// Temp directories for the broker's tests: each is removed once the test file that made it is done (its brokers
// are stopped by then), so repeated runs do not fill the temp volume. NEREUS_TEST_KEEP_DIRS=1 keeps them and
// prints where they are, for looking at a failed run's data and logs.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const madeDirs: string[] = [];

/** A new directory `<os temp dir>/nereus-<prefix>-XXXXXX`, removed after the last test of the calling file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `nereus-${prefix}-`));
  madeDirs.push(dir);
  return dir;
}

afterAll(() => {
  const dirs = madeDirs.splice(0);
  if (process.env.NEREUS_TEST_KEEP_DIRS === "1") {
    if (dirs.length > 0) console.log(`kept test directories (NEREUS_TEST_KEEP_DIRS=1):\n  ${dirs.join("\n  ")}`);
    return;
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});
