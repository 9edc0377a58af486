// The worker thread of the thread-wake probe (machine-probes.ts): answers each odd value of the shared word
// (workerData: its SharedArrayBuffer) with the next even one, waking the probe, until the word reads `stop`.
// It blocks in Atomics.wait between pings, so it is ready for the probe the moment it said so.
import { parentPort, workerData } from "node:worker_threads";
import { WakeWord, type WakeProbeReady } from "./wake-probe-protocol.js";

const words = new Int32Array(workerData as SharedArrayBuffer);
parentPort?.postMessage({ kind: "ready" } satisfies WakeProbeReady);
for (;;) {
  const value = Atomics.load(words, 0);
  if (value === WakeWord.stop) break;
  if (value % 2 === 1) {
    Atomics.store(words, 0, value + 1);
    Atomics.notify(words, 0);
    continue;
  }
  Atomics.wait(words, 0, value);
}
