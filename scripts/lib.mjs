// Shared helpers of the README commands (`npm start`, `npm test`, `npm run setup`). Plain Node, no dependencies:
// these scripts run on a fresh machine before anything is installed. Nothing here changes global tools: pnpm is
// the workspace's own (a pinned root devDependency in node_modules/.bin), bootstrapped once with `npm exec`, which
// keeps its copy in npm's cache, never in the global prefix.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const PNPM_VERSION = "12.4.2";
const LOCAL_BIN = path.join(ROOT, "node_modules", ".bin");
const LOCAL_PNPM = path.join(LOCAL_BIN, "pnpm");

/**
 * Environment every step runs with: the workspace's node_modules/.bin first on PATH (turbo and package scripts find
 * the project's pnpm, not a global one), native addons built against the system headers, no telemetry.
 */
export function toolEnvironment(extra = {}) {
  return {
    ...process.env,
    PATH: [LOCAL_BIN, process.env.PATH].filter(Boolean).join(path.delimiter),
    npm_config_nodedir: process.env.npm_config_nodedir ?? "/usr",
    TURBO_TELEMETRY_DISABLED: "1",
    DO_NOT_TRACK: "1",
    ...extra,
  };
}

export function log(message) {
  process.stdout.write(`[nereus] ${message}\n`);
}

/** Prints one clear error line and exits non-zero. */
export function fail(message, code = 1) {
  process.stderr.write(`[nereus] error: ${message}\n`);
  process.exit(code);
}

/** Runs a command with inherited output; resolves to its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: "inherit",
      env: toolEnvironment(options.env),
      ...options.spawn,
    });
    child.on("error", (error) => {
      process.stderr.write(`[nereus] error: cannot run ${command}: ${error.message}\n`);
      resolve(127);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Runs the workspace's pinned pnpm (installed by {@link ensureDependencies}). */
export function pnpm(args, options = {}) {
  return run(LOCAL_PNPM, args, options);
}

function localPnpmVersion() {
  if (!existsSync(LOCAL_PNPM)) return undefined;
  const result = spawnSync(LOCAL_PNPM, ["-v"], { cwd: ROOT, encoding: "utf8", env: toolEnvironment() });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * Installs the workspace dependencies from the lockfile with the pinned pnpm: the workspace's own copy when it is
 * installed, else one run through `npm exec` (npm's cache), which installs the workspace's copy with the rest.
 */
export async function ensureDependencies() {
  if (!existsSync(path.join(ROOT, "pnpm-lock.yaml")))
    fail("pnpm-lock.yaml is missing: the workspace cannot install reproducibly");
  const local = localPnpmVersion();
  const installer =
    local === PNPM_VERSION ? [LOCAL_PNPM] : ["npm", "exec", "--yes", `--package=pnpm@${PNPM_VERSION}`, "--", "pnpm"];
  if (local !== PNPM_VERSION)
    log(`bootstrapping pnpm ${PNPM_VERSION} through npm exec (nothing is installed globally)`);
  log("installing dependencies (pnpm install --frozen-lockfile)");
  const code = await run(installer[0], [...installer.slice(1), "install", "--frozen-lockfile"]);
  if (code !== 0)
    fail(
      `pnpm install failed (exit ${code}); if the lockfile is outdated run 'pnpm install' and commit pnpm-lock.yaml`,
    );
  const installed = localPnpmVersion();
  if (installed !== PNPM_VERSION)
    fail(
      `node_modules/.bin/pnpm is ${installed ?? "missing"}, expected ${PNPM_VERSION}: the root devDependency "pnpm" must be pinned to ${PNPM_VERSION}`,
    );
}
