// Shared helpers of the two README commands (`npm start`, `npm test`). Plain Node, no dependencies: these
// scripts run on a fresh machine before anything is installed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const PNPM_VERSION = "12.4.2";

/** Environment every step runs with (native addons build against the system headers; no telemetry). */
export function toolEnvironment(extra = {}) {
  return {
    ...process.env,
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

function pnpmVersion() {
  const result = spawnSync("pnpm", ["-v"], { encoding: "utf8", env: toolEnvironment() });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** Installs the pinned pnpm when missing or different, then the workspace dependencies from the lockfile. */
export async function ensureDependencies() {
  const found = pnpmVersion();
  if (found !== PNPM_VERSION) {
    log(`installing pnpm ${PNPM_VERSION} (found ${found ?? "none"})`);
    const code = await run("npm", ["install", "--global", `pnpm@${PNPM_VERSION}`]);
    if (code !== 0 || pnpmVersion() !== PNPM_VERSION)
      fail(`could not install pnpm ${PNPM_VERSION} with npm (exit ${code})`);
  }
  if (!existsSync(path.join(ROOT, "pnpm-lock.yaml")))
    fail("pnpm-lock.yaml is missing: the workspace cannot install reproducibly");
  log("installing dependencies (pnpm install --frozen-lockfile)");
  const code = await run("pnpm", ["install", "--frozen-lockfile"]);
  if (code !== 0)
    fail(
      `pnpm install failed (exit ${code}); if the lockfile is outdated run 'pnpm install' and commit pnpm-lock.yaml`,
    );
}
