// The storage stack's series for /metrics: the embedded stores' physical steps timed on their I/O threads, where
// the filesystem store's reads landed, its segment writer's jobs, the Object WAL writer's uploads and the background
// materialization. Every value is read at scrape time from counters the stores keep anyway: nothing per request.
import type { Registry } from "prom-client";
import {
  storageIoTimings,
  storageReadBuffers,
  storageSegmentStats,
  type BrokerStorage,
} from "../storage/open-storage.js";
import { registerGaugeReading } from "./broker-registry.js";
import { registerCollectedFamilies } from "./collected-families.js";

/** Adds the storage stack's collectors to `metrics` (families without a source, e.g. segments on S3, stay absent). */
export function registerStorageMetrics(metrics: Registry, storage: BrokerStorage): void {
  registerGaugeReading(
    metrics,
    "nereus_storage_writable",
    "1 while the object store's last writes succeeded, 0 from a failed write (a full disk, say) until a write succeeds again.",
    () => (storage.writeHealth().writable ? 1 : 0),
  );
  registerCollectedFamilies(metrics, () => {
    const timings = Object.entries(storageIoTimings(storage));
    if (timings.length === 0) return [];
    return [
      {
        name: "nereus_storage_io_seconds",
        help: "Physical steps of the embedded stores, timed on their I/O threads: segment_write, segment_sync (fdatasync), object_publish, object_read, sqlite_round (BEGIN to COMMIT without gate waits), sqlite_gate_wait (a round waiting for the segment write its txns stand behind), sqlite_wal_sync (-wal datasync).",
        type: "histogram",
        series: timings.map(([step, snapshot]) => ({
          labels: { step },
          buckets: snapshot.buckets,
          sum: snapshot.sumSeconds,
          count: snapshot.count,
        })),
      },
    ];
  });
  registerCollectedFamilies(metrics, () => {
    const pools = storageReadBuffers(storage);
    if (pools.length === 0) return [];
    return [
      {
        name: "nereus_storage_read_buffers_total",
        help: "Reads of the filesystem store by where their bytes landed: a reused buffer (kind=lent) or one of their own (kind=own: too small or large, or every reused buffer was still referenced); pool=event_loop for the newest segments, workers for the rest.",
        type: "counter",
        samples: pools.flatMap(({ pool, lent, own }) => [
          { labels: { pool, kind: "lent" }, value: lent },
          { labels: { pool, kind: "own" }, value: own },
        ]),
      },
      {
        name: "nereus_storage_read_buffer_bytes",
        help: "Bytes of reused read buffers the event loop's pool holds now (let go after 30 s without reads).",
        type: "gauge",
        samples: pools.flatMap(({ pool, chunkBytes }) =>
          chunkBytes === undefined ? [] : [{ labels: { pool }, value: chunkBytes }],
        ),
      },
    ];
  });
  registerCollectedFamilies(metrics, () => {
    const segments = storageSegmentStats(storage);
    if (segments === undefined) return [];
    return [
      {
        name: "nereus_segment_write_jobs_total",
        help: "Write jobs of the filesystem store's segment writer (each one write and one fdatasync for every record queued since the previous job); kind=following: sent while another job was in flight.",
        type: "counter",
        samples: [
          { labels: { kind: "all" }, value: segments.writeJobs },
          { labels: { kind: "following" }, value: segments.followingJobs },
        ],
      },
      {
        name: "nereus_segment_records_total",
        help: "Records (object puts and deletes) written to segments.",
        type: "counter",
        samples: [{ labels: {}, value: segments.records }],
      },
      {
        name: "nereus_segments_removed_total",
        help: "Segment files removed once nothing in them was needed.",
        type: "counter",
        samples: [{ labels: {}, value: segments.segmentsRemoved }],
      },
      {
        name: "nereus_segment_objects_compacted_total",
        help: "Objects moved out of sparse segments by compaction.",
        type: "counter",
        samples: [{ labels: {}, value: segments.objectsCompacted }],
      },
    ];
  });
  const walStats = storage.runtime.writer.stats;
  registerCollectedFamilies(metrics, () => [
    {
      name: "nereus_wal_objects_total",
      help: "Object WAL objects uploaded.",
      type: "counter",
      samples: [{ labels: {}, value: walStats.objects }],
    },
    {
      name: "nereus_wal_object_bytes_total",
      help: "Bytes of uploaded Object WAL objects.",
      type: "counter",
      samples: [{ labels: {}, value: walStats.objectBytes }],
    },
    {
      name: "nereus_wal_slices_total",
      help: "Stream slices in uploaded Object WAL objects.",
      type: "counter",
      samples: [{ labels: {}, value: walStats.slices }],
    },
    {
      name: "nereus_wal_failed_flushes_total",
      help: "Object WAL uploads that failed.",
      type: "counter",
      samples: [{ labels: {}, value: walStats.failedFlushes }],
    },
  ]);
  const materialization = storage.runtime.worker.stats;
  registerCollectedFamilies(metrics, () => [
    {
      name: "nereus_materialization_tasks_published_total",
      help: "Higher generations published by the background worker.",
      type: "counter",
      samples: [{ labels: {}, value: materialization.tasksPublished }],
    },
    {
      name: "nereus_materialization_bytes_total",
      help: "Source payload bytes of the materialization tasks run.",
      type: "counter",
      samples: [{ labels: {}, value: materialization.bytesMaterialized }],
    },
    {
      name: "nereus_materialization_deferrals_total",
      help: "Background visits that left work for later: a small or busy-time level-1 increment (kind=level1), a merge while busy (kind=merge).",
      type: "counter",
      samples: [
        { labels: { kind: "level1" }, value: materialization.tasksDeferred },
        { labels: { kind: "merge" }, value: materialization.mergesDeferred },
      ],
    },
    {
      name: "nereus_materialization_foreground_wait_seconds_total",
      help: "Time background materialization tasks waited between their steps for busy foreground traffic (appends, reads) to pass.",
      type: "counter",
      samples: [{ labels: {}, value: materialization.foregroundWaitMs / 1000 }],
    },
    {
      name: "nereus_materialization_errors_total",
      help: "Background materialization passes or tasks that failed.",
      type: "counter",
      samples: [{ labels: {}, value: materialization.errors }],
    },
    {
      name: "nereus_materialization_pending_bytes",
      help: "Payload bytes committed above the materialized end of the streams (as of each stream's last visit): the backlog a busy broker left for later.",
      type: "gauge",
      samples: [{ labels: {}, value: storage.runtime.worker.pendingBytes }],
    },
  ]);
}
