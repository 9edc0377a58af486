// better-sqlite3, an optional peer dependency of @nereus/object-wal: loaded when the filesystem store's segment
// layout opens its index (segment-index.ts), so a user of the S3 store, or of the filesystem store without
// segments, installs (and compiles) no SQLite.
import { importOptionalDependency, type OptionalDependency } from "@nereus/core/internal";
import type Database from "better-sqlite3";

/** The package, the range package.json declares for it, and its loader. */
export const BETTER_SQLITE3: OptionalDependency<{ readonly default: typeof Database }> = {
  packageName: "better-sqlite3",
  versionRange: "^12.11.1",
  neededBy:
    "the segment layout of the filesystem object store (FileSystemObjectStore `segments` of @nereus/object-wal)",
  load: () => import("better-sqlite3"),
};

/** better-sqlite3's `Database` class. Throws `DEPENDENCY_UNAVAILABLE` naming the package when it cannot load. */
export async function loadBetterSqlite3(): Promise<typeof Database> {
  return (await importOptionalDependency(BETTER_SQLITE3)).default;
}
