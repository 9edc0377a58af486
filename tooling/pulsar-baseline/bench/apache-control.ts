// `pnpm control`: the broker's Java client acceptance scenarios (apps/broker/test/java-pulsar-clients.integration
// .test.ts: produce/consume through each subscription type, Shared and Key_Shared consumer groups, Failover hand-over,
// seek by message id and publish time, negative acks, ack timeouts and the dead-letter topic) run against Apache
// Pulsar 4.2.4 standalone instead of the Nereus broker. A scenario that passes here and fails on Nereus is a Nereus
// bug; one that fails here too tests something Apache Pulsar does not do. It starts the standalone, runs that test
// file with vitest in apps/broker with NEREUS_PULSAR_CONTROL_URL and NEREUS_PULSAR_CONTROL_ADMIN_PORT naming it,
// stops the standalone and exits with vitest's status. Extra arguments go to vitest (e.g. `-t seek`).
import { spawn } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "@nereus/kafka-baseline";
import { startApachePulsar } from "../src/index.js";

const SCENARIOS = "test/java-pulsar-clients.integration.test.ts";

const log = (line: string): void => {
  process.stdout.write(`[pulsar-control] ${line}\n`);
};

/** Runs vitest on the scenarios against `serviceUrl`; its exit status. */
function runScenarios(serviceUrl: string, adminPort: number, vitestArgs: readonly string[]): Promise<number> {
  const child = spawn("pnpm", ["exec", "vitest", "run", SCENARIOS, ...vitestArgs], {
    cwd: path.join(REPO_ROOT, "apps/broker"),
    stdio: "inherit",
    env: {
      ...process.env,
      NEREUS_PULSAR_CONTROL_URL: serviceUrl,
      NEREUS_PULSAR_CONTROL_ADMIN_PORT: String(adminPort),
    },
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

async function main(): Promise<number> {
  const vitestArgs = process.argv.slice(2).filter((arg) => arg !== "--");
  const pulsar = await startApachePulsar({ log });
  try {
    const adminPort = Number(new URL(pulsar.adminUrl).port);
    log(`running ${SCENARIOS} against Apache Pulsar ${pulsar.version} at ${pulsar.serviceUrl}`);
    const status = await runScenarios(pulsar.serviceUrl, adminPort, vitestArgs);
    log(status === 0 ? "every scenario passed on Apache Pulsar" : `vitest exited with ${String(status)}`);
    return status;
  } finally {
    await pulsar.stop();
  }
}

process.exitCode = await main();
