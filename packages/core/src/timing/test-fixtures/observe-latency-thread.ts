// A worker module for shared-latency-histogram.test.ts: records the durations it is given (decimal strings of
// nanoseconds) into the histogram whose handle it received, then says so.
import { parentPort, workerData } from "node:worker_threads";
import { SharedLatencyHistogram, type SharedLatencyHistogramHandle } from "../shared-latency-histogram.js";

const data = workerData as { readonly handle: SharedLatencyHistogramHandle; readonly durations: readonly string[] };
const histogram = SharedLatencyHistogram.attach(data.handle);
for (const nanos of data.durations) histogram.observeNanos(BigInt(nanos));
parentPort?.postMessage("done");
