// A worker module for start-worker-module.test.ts that exists as JavaScript, the way a built package's does:
// answers with what it was given.
import { parentPort, workerData } from "node:worker_threads";

parentPort?.postMessage({ fromSource: false, workerData, argv: process.argv.slice(2) });
