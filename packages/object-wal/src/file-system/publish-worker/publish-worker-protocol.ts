// The messages between the publish pool (file-publish-worker.ts) and a publish worker thread
// (publish-worker-thread.ts), shared by both sides: the requests, the replies (each names the request by `id`),
// the worker's start-up data and the sizes of its read chunks. A shared buffer crosses once per worker: the first
// job that uses it carries it, later ones name it by id (`SharedBodyReference`).
import type { SharedLatencyHistogramHandle } from "@nereus/core";
import type {
  PublishError,
  PublishJob,
  PublishOutcome,
  ReadJob,
  SegmentWriteJob,
  SegmentWriteOutcome,
  SegmentWriteRecord,
} from "./publish-jobs.js";

/** Reads shorter than this get a buffer of their own (a small malloc is cheap and rarely faults). */
export const MIN_POOLED_READ_BYTES = 16 * 1024;
/** Read chunk size classes: powers of two from 64 KiB to 8 MiB; longer reads get a buffer of their own. */
export const MIN_READ_CHUNK_BYTES = 64 * 1024;
export const MAX_READ_CHUNK_BYTES = 8 * 1024 * 1024;

/** A shared buffer as a message names it: with the buffer the first time a worker sees `id`, by `id` alone after. */
export type SharedBodyReference<M extends { readonly id: number; readonly buffer: SharedArrayBuffer }> =
  M | Omit<M, "buffer">;

/** A publish job as sent. */
export interface PublishJobMessage extends Omit<PublishJob, "memory"> {
  readonly memory?: SharedBodyReference<NonNullable<PublishJob["memory"]>>;
}

/** A segment record as sent. */
export interface SegmentWriteRecordMessage extends Omit<SegmentWriteRecord, "memory"> {
  readonly memory?: SharedBodyReference<NonNullable<SegmentWriteRecord["memory"]>>;
}

/** A segment write job as sent. */
export interface SegmentWriteJobMessage extends Omit<SegmentWriteJob, "records"> {
  readonly records: readonly SegmentWriteRecordMessage[];
}

/** A message from the pool to a worker. */
export type PublishWorkerRequest =
  | { readonly kind: "publish"; readonly id: number; readonly job: PublishJobMessage }
  /** The reads asked for in one turn of the pool's event loop: one job, one reply. */
  | { readonly kind: "read"; readonly id: number; readonly jobs: readonly ReadJob[] }
  | { readonly kind: "write-segment"; readonly id: number; readonly job: SegmentWriteJobMessage }
  /** Drop the worker's reference to shared body `memory` (the pool let it go). No reply. */
  | { readonly kind: "forget"; readonly memory: number }
  /** Read chunks the pool is done with: the worker may reuse them. No reply. */
  | { readonly kind: "release"; readonly chunks: readonly number[] };

/** What a worker answers for one read: the bytes transferred, or lent in one of its shared chunks. */
export type WorkerReadOutcome =
  | {
      readonly kind: "read";
      readonly header: Uint8Array;
      readonly bodySize: number;
      readonly bytes: Uint8Array;
      readonly lent?: undefined;
    }
  | {
      readonly kind: "read";
      readonly header: Uint8Array;
      readonly bodySize: number;
      readonly bytes?: undefined;
      readonly lent: { readonly chunk: number; readonly buffer: SharedArrayBuffer; readonly length: number };
    }
  | { readonly kind: "failed"; readonly error: PublishError };

/** A message from a worker to the pool: the outcome of request `id`, of the request's kind. */
export type PublishWorkerReply =
  | { readonly kind: "publish"; readonly id: number; readonly outcome: PublishOutcome }
  /** One outcome per read job, in order. */
  | { readonly kind: "read"; readonly id: number; readonly outcomes: readonly WorkerReadOutcome[] }
  | { readonly kind: "write-segment"; readonly id: number; readonly outcome: SegmentWriteOutcome };

/** How long the worker's physical steps take, recorded in shared memory (see `FilePublishPool.timings`). */
interface PublishWorkerTimings<H = SharedLatencyHistogramHandle> {
  readonly segmentWrite: H;
  readonly segmentSync: H;
  readonly objectPublish: H;
  readonly objectRead: H;
}

/** A worker's `workerData`. */
export interface PublishWorkerData {
  /** Bytes of read chunks this worker may keep for reuse. */
  readonly readBufferBytes: number;
  readonly timings: PublishWorkerTimings;
}
