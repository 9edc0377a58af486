// `npm start`: installs what is needed, builds, and runs the broker on its embedded default (local filesystem
// object store + SQLite metadata in ./.nereus-data). Until apps/broker exists it says so and exits non-zero.
import { existsSync } from "node:fs";
import path from "node:path";
import { ROOT, ensureDependencies, fail, log, run } from "./lib.mjs";

const brokerDir = path.join(ROOT, "apps/broker");
if (!existsSync(path.join(brokerDir, "package.json"))) {
  fail("the broker (apps/broker) does not exist yet: it arrives with the Kafka adapter issue. Nothing to start.");
}
await ensureDependencies();
log("building the broker and its packages");
const buildCode = await run("pnpm", ["exec", "turbo", "run", "build", "--filter", "@nereus/broker..."]);
if (buildCode !== 0) fail(`build failed (exit ${buildCode})`);
log("starting the broker on its embedded default");
process.exit(await run("pnpm", ["--filter", "@nereus/broker", "start", ...process.argv.slice(2)]));
