// Runs the real-client scenarios (test/client-scenarios.ts) and freezes the request frames each client sent as
// test/fixtures/<client>-<scenario>.hex, headed by the client versions. Run when adding a scenario, naming it to
// leave the other fixtures untouched:
// `node --conditions=@nereus/source --import tsx scripts/capture-client-fixtures.ts [<client>-<scenario> ...]`.
import fs from "node:fs";
import path from "node:path";
import { toHex } from "@nereus/core";
import { CLIENT_SCENARIOS, clientIdentity, runScenario } from "../test/client-scenarios.js";
import { frameLabel } from "../test/client-fixtures.js";

const dir = path.resolve(import.meta.dirname, "..", "test", "fixtures");
const wanted = new Set(process.argv.slice(2));
for (const scenario of CLIENT_SCENARIOS) {
  if (wanted.size > 0 && !wanted.has(`${scenario.client}-${scenario.name}`)) continue;
  const identity = await clientIdentity(scenario.client);
  const { broker } = await runScenario(scenario);
  if (broker.errors.length > 0) throw broker.errors[0];
  const lines = [
    `# Request frames (size prefix removed) sent by ${identity.version} in scenario "${scenario.name}"`,
    `# against test/recording-broker.ts; captured by scripts/capture-client-fixtures.ts. One frame per line.`,
    `# client: ${identity.version}`,
    ...broker.frames.map((recorded) => `${frameLabel(recorded.frame)} ${toHex(recorded.frame)}`),
  ];
  const file = path.join(dir, `${scenario.client}-${scenario.name}.hex`);
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  console.log(`${path.relative(process.cwd(), file)}: ${String(broker.frames.length)} frame(s)`);
}
