// `nereus_kafka_consumer_group_lag{group,topic,partition}`: each committed offset's lag (the partition's end offset
// minus the committed offset), computed at scrape time from the stored offsets and the stream heads (group-lag.ts).
// Cardinality is bounded: at most MAX_LAG_PARTITIONS series per scrape, groups taken in id order; the group-partitions
// left out are counted by `nereus_kafka_consumer_group_lag_omitted`. A reading that fails or outlasts its deadline
// leaves the lag series out of that scrape (the rest of /metrics is served) and is logged at debug level.
import { Gauge, type Registry } from "prom-client";
import type { AdminContext } from "./admin-context.js";
import { type GroupLagReading, MAX_LAG_PARTITIONS, lagOf, readGroupLag } from "./group-lag.js";

/** How long one scrape's lag reading may take. */
const LAG_READING_TIMEOUT_MS = 5_000;

/** One reading shared by the two gauges of a scrape (prom-client asks every metric at once). */
function sharedReading(context: AdminContext, maxSeries: number): () => Promise<GroupLagReading | undefined> {
  let inFlight: Promise<GroupLagReading | undefined> | undefined;
  const read = async (): Promise<GroupLagReading | undefined> => {
    try {
      const signal = AbortSignal.timeout(LAG_READING_TIMEOUT_MS);
      const groups = await context.coordinator.listGroupStates({ signal });
      return await readGroupLag(context, groups, { maxPartitions: maxSeries, signal });
    } catch (error) {
      context.logger.debug("consumer group lag not read for this scrape", { error });
      return undefined;
    }
  };
  return () => {
    inFlight ??= read().finally(() => (inFlight = undefined));
    return inFlight;
  };
}

/** Registers the group-lag gauges on `metrics` (series bound: `maxSeries`, default MAX_LAG_PARTITIONS). */
export function registerGroupLagMetric(
  metrics: Registry,
  context: AdminContext,
  maxSeries: number = MAX_LAG_PARTITIONS,
): void {
  const reading = sharedReading(context, maxSeries);
  new Gauge({
    name: "nereus_kafka_consumer_group_lag",
    help: "Records between a consumer group's committed offset and the partition's end offset, read at scrape time.",
    labelNames: ["group", "topic", "partition"],
    registers: [metrics],
    async collect() {
      this.reset();
      for (const { group, partitions } of (await reading())?.groups ?? []) {
        for (const partition of partitions ?? []) {
          const lag = lagOf(partition);
          if (lag === undefined) continue;
          const labels = { group: group.groupId, topic: partition.committed.topic };
          this.set({ ...labels, partition: String(partition.committed.partition) }, lag);
        }
      }
    },
  });
  new Gauge({
    name: "nereus_kafka_consumer_group_lag_omitted",
    help: `Committed group-partitions left out of nereus_kafka_consumer_group_lag by its bound (${String(maxSeries)} series, groups in id order).`,
    registers: [metrics],
    async collect() {
      this.set((await reading())?.omittedPartitions ?? 0);
    },
  });
}
