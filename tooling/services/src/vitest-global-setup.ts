// Vitest global setup of the services preset: reuse the shared services when NEREUS_SERVICES_FILE is set (the
// root `npm test` started them); otherwise start all of them for this vitest run, publish the state file
// through NEREUS_SERVICES_FILE to the workers, and stop them in teardown.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SERVICES_FILE_ENV } from "./load-services.js";
import type { RunningServices } from "./running-services.js";
import { startServices } from "./services.js";

let owned: { services: RunningServices; stateFile: string } | undefined;

/** Starts the services unless a shared set is already announced through NEREUS_SERVICES_FILE. */
export async function setup(): Promise<void> {
  // The project runs Node 20 on purpose; the AWS SDK's end-of-support notice would repeat in every worker.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const shared = process.env[SERVICES_FILE_ENV];
  if (shared !== undefined && shared !== "") return;
  const stateFile = path.join(os.tmpdir(), `nereus-services-state-${process.pid}-${Date.now().toString(36)}.json`);
  const services = await startServices({
    stateFile,
    log: (line) => process.stderr.write(`[nereus-services] ${line}\n`),
  }).catch((error: unknown) => {
    // Vitest prints the message; make it carry the log tail too.
    if (error instanceof Error && "detail" in error && typeof error.detail === "function")
      error.message = String(error.detail());
    throw error;
  });
  owned = { services, stateFile };
  process.env[SERVICES_FILE_ENV] = stateFile;
}

/** Stops the services this setup started (PIDs re-read from the state file, so restarted bookies are included). */
export async function teardown(): Promise<void> {
  if (owned === undefined) return;
  const { services, stateFile } = owned;
  owned = undefined;
  try {
    await services.stop();
  } finally {
    fs.rmSync(stateFile, { force: true });
    delete process.env[SERVICES_FILE_ENV];
  }
}
