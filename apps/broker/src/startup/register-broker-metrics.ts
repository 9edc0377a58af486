// Start-up step 4: the broker-wide metrics — the Kafka broker's and the group coordinator's families, storage, the
// storage collector, uptime, the runtime (event loop, GC) and the constant info gauge with the broker's identity. The
// process's standard metrics (CPU, memory, heap) are prom-client's defaults (metrics/broker-registry.ts). The runtime
// observers are registered for undo. The names and their meaning are listed in docs/metrics.md.
import type { GroupCoordinator, KafkaBroker } from "@nereus/kafka";
import { Gauge, type Registry } from "prom-client";
import type { BrokerConfig } from "../config/broker-config.js";
import { registerGaugeReading } from "../metrics/broker-registry.js";
import { registerCollectedFamilies } from "../metrics/collected-families.js";
import { registerReclamationMetrics } from "../metrics/reclamation-metrics.js";
import { registerRuntimeMetrics, type RuntimeMetrics } from "../metrics/runtime-metrics.js";
import { registerStorageMetrics } from "../metrics/storage-metrics.js";
import type { BrokerStorage } from "../storage/open-storage.js";
import type { StartupUndo } from "./startup-undo.js";

/** Registers the broker's metrics on `metrics`; answers the runtime observers (stopped at shutdown). */
export function registerBrokerMetrics(
  metrics: Registry,
  config: BrokerConfig,
  startedAt: number,
  services: { readonly broker: KafkaBroker; readonly coordinator: GroupCoordinator },
  storage: BrokerStorage,
  undo: StartupUndo,
): RuntimeMetrics {
  const { broker, coordinator } = services;
  registerCollectedFamilies(metrics, () => broker.metrics.collect());
  registerCollectedFamilies(metrics, () => groupFamilies(coordinator));
  registerStorageMetrics(metrics, storage);
  registerReclamationMetrics(
    metrics,
    storage.runtime.reclaimer.stats,
    ...(storage.ledgerReclaimer === undefined ? [] : [storage.ledgerReclaimer.stats]),
  );
  registerGaugeReading(
    metrics,
    "nereus_broker_uptime_seconds",
    "Seconds since the broker started.",
    () => (Date.now() - startedAt) / 1000,
  );
  const runtimeMetrics = registerRuntimeMetrics(metrics);
  undo.push(() => runtimeMetrics.stop());
  const identity = {
    node_id: String(config.nodeId),
    cluster: config.cluster,
    default_profile: config.storage.defaultProfile,
    metadata: config.storage.metadata.kind,
    objects: config.storage.objects.kind,
  };
  new Gauge({
    name: "nereus_broker_info",
    help: "Constant 1, labelled with the broker's identity.",
    labelNames: Object.keys(identity),
    registers: [metrics],
  }).set(identity, 1);
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
