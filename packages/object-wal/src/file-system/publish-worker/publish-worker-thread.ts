// The program of a publish worker thread, started by FilePublishPool (file-publish-worker.ts) and built as an
// entry of its own. It runs each request of publish-worker-protocol.ts as one job of synchronous system calls —
// publish an object file (publish-object-file.ts), a batch of reads (read-object-file.ts), a segment write
// (segment-file-writer.ts) — and answers it in one message; read bytes go back lent (a shared chunk) or
// transferred, never copied. It records how long the steps took in the pool's shared histograms.
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { SharedLatencyHistogram } from "@nereus/core";
import { ObjectFilePublisher } from "./publish-object-file.js";
import type { PublishOutcome } from "./publish-jobs.js";
import type {
  PublishJobMessage,
  PublishWorkerData,
  PublishWorkerReply,
  PublishWorkerRequest,
  WorkerReadOutcome,
} from "./publish-worker-protocol.js";
import { ReadChunks } from "./read-chunks.js";
import { readObjectFile } from "./read-object-file.js";
import { SegmentFileWriter } from "./segment-file-writer.js";
import { SharedBodies } from "./shared-bodies.js";
import { toPublishError } from "./sync-file-io.js";

if (parentPort === null) throw new Error("publish-worker-thread runs as a worker thread (started by FilePublishPool)");
const port = parentPort;
const data = workerData as PublishWorkerData;
const timings = {
  segmentWrite: SharedLatencyHistogram.attach(data.timings.segmentWrite),
  segmentSync: SharedLatencyHistogram.attach(data.timings.segmentSync),
  objectPublish: SharedLatencyHistogram.attach(data.timings.objectPublish),
  objectRead: SharedLatencyHistogram.attach(data.timings.objectRead),
};
const bodies = new SharedBodies();
const chunks = new ReadChunks(data.readBufferBytes);
const publisher = new ObjectFilePublisher(bodies);
const segments = new SegmentFileWriter(bodies, { write: timings.segmentWrite, sync: timings.segmentSync });

function reply(message: PublishWorkerReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

/** One read, timed when it succeeds; a failure is its outcome. */
function read(job: Parameters<typeof readObjectFile>[0]): WorkerReadOutcome {
  try {
    const started = process.hrtime.bigint();
    const outcome = readObjectFile(job, chunks);
    timings.objectRead.observeNanos(process.hrtime.bigint() - started);
    return outcome;
  } catch (error) {
    return { kind: "failed", error: toPublishError(error) };
  }
}

/** One publish, timed when it created the object; a failure removes the temp file and is its outcome. */
function publish(job: PublishJobMessage): PublishOutcome {
  const started = process.hrtime.bigint();
  try {
    const outcome = publisher.publish(job);
    if (outcome.kind === "published" && outcome.created)
      timings.objectPublish.observeNanos(process.hrtime.bigint() - started);
    return outcome;
  } catch (error) {
    try {
      fs.unlinkSync(job.temporary);
    } catch {
      // Never written, or already gone.
    }
    return { kind: "failed", error: toPublishError(error) };
  }
}

port.on("message", (request: PublishWorkerRequest) => {
  switch (request.kind) {
    case "forget":
      bodies.forget(request.memory);
      return;
    case "release":
      for (const id of request.chunks) chunks.release(id);
      return;
    case "read": {
      const outcomes = request.jobs.map(read);
      const transfer: ArrayBuffer[] = [];
      for (const each of outcomes) {
        if (each.kind === "read" && each.bytes !== undefined && !transfer.includes(each.bytes.buffer as ArrayBuffer))
          transfer.push(each.bytes.buffer as ArrayBuffer);
      }
      reply({ kind: "read", id: request.id, outcomes }, transfer);
      return;
    }
    case "write-segment":
      reply({ kind: "write-segment", id: request.id, outcome: segments.run(request.job) });
      return;
    case "publish":
      reply({ kind: "publish", id: request.id, outcome: publish(request.job) });
      return;
  }
});
