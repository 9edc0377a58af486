// Start-up step 4: the broker-wide metrics — the Kafka broker's and the group coordinator's families, storage,
// uptime, process memory, the runtime (event loop, GC) and the constant info gauge with the broker's identity.
// The runtime observers are registered for undo. The names and their meaning are listed in docs/metrics.md.
import type { GroupCoordinator, KafkaBroker } from "@nereus/kafka";
import type { BrokerConfig } from "../config/broker-config.js";
import type { MetricsRegistry } from "../metrics/metrics-registry.js";
import { registerRuntimeMetrics, type RuntimeMetrics } from "../metrics/runtime-metrics.js";
import { registerStorageMetrics } from "../metrics/storage-metrics.js";
import type { BrokerStorage } from "../storage/open-storage.js";
import type { StartupUndo } from "./startup-undo.js";

/** Registers the broker's metrics on `metrics`; answers the runtime observers (stopped at shutdown). */
export function registerBrokerMetrics(
  metrics: MetricsRegistry,
  config: BrokerConfig,
  startedAt: number,
  services: { readonly broker: KafkaBroker; readonly coordinator: GroupCoordinator },
  storage: BrokerStorage,
  undo: StartupUndo,
): RuntimeMetrics {
  const { broker, coordinator } = services;
  metrics.addCollector(() => broker.metrics.collect());
  metrics.addCollector(() => groupFamilies(coordinator));
  registerStorageMetrics(metrics, storage);
  metrics.gauge(
    "nereus_broker_uptime_seconds",
    "Seconds since the broker started.",
    () => (Date.now() - startedAt) / 1000,
  );
  metrics.gauge("nereus_process_resident_memory_bytes", "Resident set size of the broker process.", () =>
    process.memoryUsage.rss(),
  );
  metrics.gauge("nereus_process_heap_used_bytes", "V8 heap in use.", () => process.memoryUsage().heapUsed);
  const runtimeMetrics = registerRuntimeMetrics(metrics);
  undo.push(() => runtimeMetrics.stop());
  metrics.gauge("nereus_broker_info", "Constant 1, labelled with the broker's identity.").set(1, {
    node_id: String(config.nodeId),
    cluster: config.cluster,
    default_profile: config.storage.defaultProfile,
    metadata: config.storage.metadata.kind,
    objects: config.storage.objects.kind,
  });
  return runtimeMetrics;
}

/** The group coordinator's counters as metric families. */
function groupFamilies(coordinator: GroupCoordinator): ReturnType<KafkaBroker["metrics"]["collect"]> {
  const snapshot = coordinator.metrics;
  return [
    {
      name: "nereus_kafka_groups",
      help: "Consumer groups with members or rebalances in memory.",
      type: "gauge",
      samples: [{ labels: {}, value: snapshot.groups }],
    },
    {
      name: "nereus_kafka_group_members",
      help: "Members of those groups.",
      type: "gauge",
      samples: [{ labels: {}, value: snapshot.members }],
    },
    {
      name: "nereus_kafka_group_rebalances_total",
      help: "Rebalances started.",
      type: "counter",
      samples: [{ labels: {}, value: snapshot.rebalances }],
    },
    {
      name: "nereus_kafka_group_members_removed_total",
      help: "Members removed (left, expired, dropped from a rebalance).",
      type: "counter",
      samples: [{ labels: {}, value: snapshot.membersRemoved }],
    },
    {
      name: "nereus_kafka_offset_commits_total",
      help: "OffsetCommit requests that stored offsets.",
      type: "counter",
      samples: [{ labels: {}, value: snapshot.offsetCommits }],
    },
  ];
}
