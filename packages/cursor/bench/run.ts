// `pnpm bench` of @nereus/cursor: runs the cursor benchmark, which lives in tooling/acceptance because it measures
// the embedded stack (the SQLite metadata store and the filesystem object store, which this package may not
// import). The environment is passed through (NEREUS_BENCH_HOLES, NEREUS_BENCH_SPAN, NEREUS_BENCH_HISTORIES, ...).
import { spawnSync } from "node:child_process";

const result = spawnSync("pnpm", ["--filter", "@nereus/acceptance", "bench:cursor"], {
  stdio: "inherit",
  env: process.env,
});
if (result.error !== undefined) throw result.error;
process.exitCode = result.status ?? 1;
