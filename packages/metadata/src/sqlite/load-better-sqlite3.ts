// better-sqlite3, an optional peer dependency of @nereus/metadata: loaded when a SQLite metadata store opens, so a
// user of the etcd store installs (and compiles) no SQLite. The writer thread imports it directly: it starts only
// after the store loaded it here.
import { importOptionalDependency, type OptionalDependency } from "@nereus/core/internal";
import type Database from "better-sqlite3";

/** The package, the range package.json declares for it, and its loader. */
export const BETTER_SQLITE3: OptionalDependency<{ readonly default: typeof Database }> = {
  packageName: "better-sqlite3",
  versionRange: "^12.11.1",
  neededBy: "the SQLite metadata store (createSqliteMetadataStore of @nereus/metadata)",
  load: () => import("better-sqlite3"),
};

/** better-sqlite3's `Database` class. Throws `DEPENDENCY_UNAVAILABLE` naming the package when it cannot load. */
export async function loadBetterSqlite3(): Promise<typeof Database> {
  return (await importOptionalDependency(BETTER_SQLITE3)).default;
}
