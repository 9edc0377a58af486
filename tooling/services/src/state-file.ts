// The state file: the services description as JSON, written atomically (temp file + rename) and updated
// under a lock file so concurrent test workers restarting bookies never lose each other's PIDs.
import fs from "node:fs";
import path from "node:path";
import type { ServicesDescription } from "./description.js";
import { ServiceStartError } from "./errors.js";
import { isProcessAlive } from "./managed-process.js";
import { sleep } from "./wait.js";

/** Writes `description` to `file` atomically. */
export function writeStateFile(file: string, description: ServicesDescription): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(description, null, 2)}\n`);
  fs.renameSync(tmp, file);
}

/** Reads a state file. Throws a one-line {@link ServiceStartError} when it is missing or not a description. */
export function readStateFile(file: string): ServicesDescription {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    throw new ServiceStartError("harness", `state file ${file} does not exist (were the services started?)`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ServiceStartError("harness", `state file ${file} is not valid JSON`);
  }
  const candidate = parsed as Partial<ServicesDescription>;
  if (candidate.version !== 1 || typeof candidate.runDir !== "string" || !Array.isArray(candidate.processes)) {
    throw new ServiceStartError("harness", `state file ${file} is not a nereus-services description`);
  }
  return parsed as ServicesDescription;
}

/** Runs a read-modify-write of the state file under `<file>.lock` (bounded wait; stale locks are broken). */
export async function updateStateFile(
  file: string,
  update: (current: ServicesDescription) => ServicesDescription | Promise<ServicesDescription>,
): Promise<ServicesDescription> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(fs.existsSync(lock) ? fs.readFileSync(lock, "utf8") : "NaN");
      if (Number.isInteger(owner) && owner > 0 && !isProcessAlive(owner)) fs.rmSync(lock, { force: true });
      else if (Date.now() > deadline)
        throw new ServiceStartError("harness", `state file lock ${lock} is held by pid ${owner}`);
      else await sleep(50);
    }
  }
  try {
    const next = await update(readStateFile(file));
    writeStateFile(file, next);
    return next;
  } finally {
    fs.rmSync(lock, { force: true });
  }
}
