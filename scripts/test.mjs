// `npm test`: installs what is needed, starts the real services once (etcd, s3proxy, ZooKeeper, BookKeeper
// bookies), runs lint, typecheck and every test of every package against them, stops the services by PID and
// prints a closing line `N passed, N failed, N skipped`. Exits non-zero on any failure. Packages test two at a time;
// tooling/acceptance's tests wait for packages/bookkeeper's (turbo.json), because those SIGKILL and restart the
// shared bookies, which failed acceptance appends that ran at the same moment ("not enough bookies").
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { ROOT, ensureDependencies, fail, log, pnpm, run } from "./lib.mjs";

const started = Date.now();
await ensureDependencies();

const stateDir = path.join(ROOT, ".nereus-services");
const stateFile = path.join(stateDir, "state.json");
const reportDir = path.join(ROOT, "test-results");
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
mkdirSync(stateDir, { recursive: true });

const servicesCli = path.join(ROOT, "tooling/services/bin/nereus-services.mjs");
let servicesRunning = false;
async function stopServices() {
  if (!servicesRunning) return;
  servicesRunning = false;
  log("stopping services");
  const code = await run("node", [servicesCli, "stop", "--state", stateFile]);
  if (code !== 0) process.stderr.write(`[nereus] error: stopping services failed (exit ${code})\n`);
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    void stopServices().finally(() => process.exit(130));
  });
}

log("fetching service artifacts and starting services");
const startCode = await run("node", [servicesCli, "start", "--state", stateFile]);
if (startCode !== 0) fail(`the test services could not start (exit ${startCode}); see the message above`);
servicesRunning = true;

let testCode;
try {
  testCode = await pnpm(
    [
      "exec",
      "turbo",
      "run",
      "lint",
      "typecheck",
      "test",
      "--continue=always",
      "--concurrency=2",
      "--output-logs=errors-only",
    ],
    {
      env: { NEREUS_SERVICES_FILE: stateFile, NEREUS_TEST_REPORT_DIR: reportDir, CI: process.env.CI ?? "" },
    },
  );
} finally {
  await stopServices();
}
// The checks that need the whole workspace at once (import rules across packages, knip's unused files and exports).
const workspaceLintCode = await run("node", [path.join(ROOT, "tooling/lint/bin/nereus-lint.mjs")]);
if (workspaceLintCode !== 0) testCode = testCode === 0 ? workspaceLintCode : testCode;

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of readdirSync(reportDir).filter((name) => name.endsWith(".json"))) {
  const report = JSON.parse(readFileSync(path.join(reportDir, file), "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (testCode !== 0 && failed === 0) {
  log("a lint, typecheck or test task failed outside the counted tests (see its output above)");
}
const minutes = ((Date.now() - started) / 60000).toFixed(1);
log(`finished in ${minutes} min`);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(testCode === 0 && failed === 0 ? 0 : 1);
