// `npm start`: installs what is needed, builds, and runs the broker (`apps/broker/dist/main.js` with the broker's
// `nereusNodeFlags`) on its embedded default (local filesystem object store + SQLite metadata in ./.nereus-data).
// Every argument goes to the broker untouched (`npm start -- --help`, `npm start -- --kafka-port 9093`): the broker
// runs directly under node, not through a package manager that would read its flags. Relative paths are meant
// from where `npm start` was typed (npm's INIT_CWD). SIGTERM and SIGHUP are passed on to the broker, and so is the
// end of npm (below); SIGINT (Ctrl-C) reaches the broker from the terminal itself, so it is not passed on twice (a
// second one makes the broker exit at once).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { constants } from "node:os";
import path from "node:path";
import { ROOT, ensureDependencies, fail, log, pnpm, toolEnvironment } from "./lib.mjs";

const brokerDir = path.join(ROOT, "apps/broker");
if (!existsSync(path.join(brokerDir, "package.json"))) {
  fail("the broker (apps/broker) does not exist yet: it arrives with the Kafka adapter issue. Nothing to start.");
}
await ensureDependencies();
log("building the broker and its packages");
const buildCode = await pnpm([
  "exec",
  "turbo",
  "run",
  "build",
  "--filter",
  "@nereus/broker...",
  "--output-logs=errors-only",
]);
if (buildCode !== 0) fail(`build failed (exit ${buildCode})`);

const manifest = JSON.parse(readFileSync(path.join(brokerDir, "package.json"), "utf8"));
const nodeFlags = Array.isArray(manifest.nereusNodeFlags) ? manifest.nereusNodeFlags : [];
const userDir = process.env.INIT_CWD || process.cwd();
log("starting the broker");
const broker = spawn(process.execPath, [...nodeFlags, path.join(brokerDir, "dist/main.js"), ...process.argv.slice(2)], {
  cwd: userDir,
  stdio: "inherit",
  env: toolEnvironment({ INIT_CWD: userDir }),
});
for (const signal of ["SIGTERM", "SIGHUP"]) process.on(signal, () => broker.kill(signal));
process.on("SIGINT", () => undefined);
// `kill <npm's pid>` ends npm and the shell it ran this script in without passing the signal on: once this process
// is orphaned, stop the broker as SIGTERM would.
const parent = process.ppid;
const orphanWatch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphanWatch);
  broker.kill("SIGTERM");
}, 500).unref();
broker.on("error", (error) => fail(`cannot run the broker: ${error.message}`));
broker.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
