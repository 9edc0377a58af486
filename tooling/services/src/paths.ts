// Where the harness keeps things: the repository's Maven cache, the poms, and per-run temp directories.
import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** tooling/services (the package directory). */
const PACKAGE_DIR = path.resolve(here, "..");

/** The monorepo root. */
const REPO_ROOT = path.resolve(PACKAGE_DIR, "../..");

/** Directory of the artifact-set poms. */
export const MAVEN_POM_DIR = path.join(PACKAGE_DIR, "maven");

/** Root of the ignored Maven artifact cache: `$NEREUS_MAVEN_CACHE` or `<repo>/.cache/maven-libs`. */
export function mavenCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.NEREUS_MAVEN_CACHE;
  return override !== undefined && override !== ""
    ? path.resolve(override)
    : path.join(REPO_ROOT, ".cache", "maven-libs");
}

/** A fresh, unique run id: time, pid and randomness (safe for concurrent harnesses). */
export function newRunId(): string {
  return `${Date.now().toString(36)}-${process.pid}-${crypto.randomBytes(3).toString("hex")}`;
}

/** `os.tmpdir()/nereus-services-<runId>`: the run's data and log directory. */
export function runDirFor(runId: string): string {
  return path.join(os.tmpdir(), `nereus-services-${runId}`);
}
