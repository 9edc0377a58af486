// Starts a worker thread on a module file of the calling package, from its build or from its sources. Built
// packages run `dist/<name>.js`, which tsup emits as an entry of its own. Running from sources (vitest, or
// `node --conditions=@nereus/source --import tsx`) there is no `.js` beside the caller, only `<name>.ts`; Node 20
// does not apply the `--import tsx` of a worker's `execArgv` to the worker's entry, so the thread starts on
// run-typescript-worker.mjs, which registers tsx in the thread and then imports the `.ts` module. The module file
// is the program: nothing is compiled or evaluated from strings.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/** The export condition that resolves workspace packages to their TypeScript sources. */
const SOURCE_CONDITION = "--conditions=@nereus/source";

/**
 * Starts a worker thread running the module at `module`, given as the URL of its built JavaScript — write
 * `new URL("./name.js", import.meta.url)` in the calling module. When that file does not exist but its TypeScript
 * source `name.ts` does (the caller runs from sources), the thread runs the source through tsx, with workspace
 * packages resolved to their sources. `options` are the Worker's (`workerData`, `transferList`, ...); `execArgv` and
 * `argv` apply in both modes. Throws when neither file exists.
 */
export function startWorkerModule(module: URL, options: WorkerOptions = {}): Worker {
  if (fs.existsSync(fileURLToPath(module))) return new Worker(module, options);
  const source = new URL(module.href.replace(/\.js$/, ".ts"));
  if (source.href === module.href || !fs.existsSync(fileURLToPath(source))) {
    throw new Error(`worker module ${fileURLToPath(module)} does not exist, nor does its TypeScript source`);
  }
  return new Worker(new URL("./run-typescript-worker.mjs", import.meta.url), {
    ...options,
    execArgv: [SOURCE_CONDITION, ...(options.execArgv ?? [])],
    // The entry reads the module's URL from its first argument and removes it before importing the module.
    argv: [source.href, ...(options.argv ?? [])],
  });
}
