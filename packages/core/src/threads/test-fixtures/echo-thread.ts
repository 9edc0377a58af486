// A worker module for start-worker-module.test.ts, run from its TypeScript source: answers with what it was
// given, with a value from another module of the package (bundled with it) and with a stack trace of its own.
import { parentPort, workerData } from "node:worker_threads";
import { DURABILITY_GATE_WORDS } from "../../spi/durability-gate.js";

const typed: { readonly fromSource: true } = { fromSource: true };
parentPort?.postMessage({
  ...typed,
  workerData: workerData as unknown,
  argv: process.argv.slice(2),
  gateWords: DURABILITY_GATE_WORDS,
  stack: new Error("here").stack,
});
