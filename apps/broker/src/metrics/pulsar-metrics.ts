// Metric families of the Pulsar side of the broker, read at scrape time: messages and bytes in (stored from SENDs)
// and out (dispatched to consumers) per topic — as many topics as the broker counts by name, the rest under one
// `_other` label, so the label set stays bounded — and the bytes of SENDs pending broker-wide (publish backpressure).
import type { MessageCounts, PulsarBrokerContext } from "@nereus/pulsar";
import type { Registry } from "prom-client";
import { type CollectedFamily, registerCollectedFamilies } from "./collected-families.js";

/** What the Pulsar families are read from. */
type PulsarMetricSource = Pick<PulsarBrokerContext, "messageCounters" | "publishBuffer">;

/** The Pulsar families with their current samples. */
function pulsarFamilies(source: PulsarMetricSource): CollectedFamily[] {
  const topics = [...source.messageCounters.counts()];
  const perTopic = (name: string, help: string, value: (counts: MessageCounts) => number): CollectedFamily => ({
    name,
    help,
    type: "counter",
    samples: topics.map(([topic, counts]) => ({ labels: { topic }, value: value(counts) })),
  });
  return [
    perTopic("nereus_pulsar_messages_in_total", "Pulsar messages stored from SENDs, by topic.", (c) => c.msgInCounter),
    perTopic(
      "nereus_pulsar_bytes_in_total",
      "Bytes of Pulsar entries stored from SENDs, by topic.",
      (c) => c.bytesInCounter,
    ),
    perTopic(
      "nereus_pulsar_messages_out_total",
      "Pulsar messages dispatched to consumers, by topic.",
      (c) => c.msgOutCounter,
    ),
    perTopic(
      "nereus_pulsar_bytes_out_total",
      "Bytes of Pulsar entries dispatched to consumers, by topic.",
      (c) => c.bytesOutCounter,
    ),
    {
      name: "nereus_pulsar_pending_publish_bytes",
      help: "Bytes of Pulsar SENDs received and not answered yet, all connections together.",
      type: "gauge",
      samples: [{ labels: {}, value: source.publishBuffer.usedBytes }],
    },
  ];
}

/** Registers the Pulsar families on `registry`. */
export function registerPulsarMetrics(registry: Registry, source: PulsarMetricSource): void {
  registerCollectedFamilies(registry, () => pulsarFamilies(source));
}
