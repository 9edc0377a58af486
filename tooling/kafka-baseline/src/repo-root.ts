// Where the harness lives: its package directory and the monorepo root (caches and the broker app are found from
// here).
import path from "node:path";
import { fileURLToPath } from "node:url";

/** tooling/kafka-baseline. */
export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The monorepo root. */
export const REPO_ROOT = path.resolve(PACKAGE_DIR, "../..");
