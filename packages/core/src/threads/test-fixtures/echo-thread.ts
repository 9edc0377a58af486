// A worker module for start-worker-module.test.ts, run from its TypeScript source: answers with what it was
// given and where `@nereus/core` resolves in its thread.
import { parentPort, workerData } from "node:worker_threads";

const typed: { readonly fromSource: true } = { fromSource: true };
parentPort?.postMessage({ ...typed, workerData: workerData as unknown, argv: process.argv.slice(2), core: import.meta.resolve("@nereus/core") });
