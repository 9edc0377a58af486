// The broker's partition logs wired to its metrics: the logs' events (appends, duplicates, fences, loads, where a
// Fetch read was served from) count into BrokerMetrics, and the metrics' gauges read the logs when collected.
import { PartitionLogs, type PartitionLogsOptions } from "../log/partition-logs.js";
import { BrokerMetrics } from "./broker-metrics.js";

/** The partition logs and the metrics that observe them. */
export interface MeteredPartitionLogs {
  readonly metrics: BrokerMetrics;
  readonly partitionLogs: PartitionLogs;
}

/** Creates the partition logs of `options` (their events come from here) and the broker metrics over them. */
export function createMeteredPartitionLogs(options: Omit<PartitionLogsOptions, "events">): MeteredPartitionLogs {
  // The gauges are read only after construction, when partitionLogs is initialized.
  const metrics = new BrokerMetrics({
    partitions: () => partitionLogs.size,
    fenced: () => partitionLogs.fencedCount,
    readAheadBytes: () => partitionLogs.readAheadBytes,
    tailCacheBytes: () => partitionLogs.tailCacheBytes,
  });
  const partitionLogs: PartitionLogs = new PartitionLogs({
    ...options,
    events: {
      appended: (topic, batches, records, bytes) => {
        metrics.producedBatches += batches;
        metrics.producedRecords += records;
        metrics.producedBytes += bytes;
        metrics.topicProduced(topic, records, bytes);
      },
      duplicate: () => (metrics.duplicateBatches += 1),
      fenced: () => (metrics.partitionFences += 1),
      loaded: (replayed) => {
        metrics.partitionLoads += 1;
        metrics.replayedBatches += replayed;
      },
      fetchRead: (source) => {
        if (source === "tail") metrics.fetchTailHits += 1;
        else if (source === "read-ahead") metrics.fetchReadAheadHits += 1;
        else metrics.fetchStorageReads += 1;
      },
    },
  });
  return { metrics, partitionLogs };
}
