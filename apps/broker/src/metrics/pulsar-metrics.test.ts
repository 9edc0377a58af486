// The Pulsar metric families as Prometheus text: per-topic counters in and out, the `_other` label for topics beyond
// the counters' bound, and the pending publish bytes.
import { PublishBuffer, TopicMessageCounters } from "@nereus/pulsar";
import { Registry } from "prom-client";
import { describe, expect, test } from "vitest";
import { registerPulsarMetrics } from "./pulsar-metrics.js";

describe("Pulsar metrics", () => {
  test("per-topic counters, bounded by the counters' topic limit, and the pending publish bytes", async () => {
    const messageCounters = new TopicMessageCounters({ maxTopics: 2 });
    const publishBuffer = new PublishBuffer(1_000_000);
    const registry = new Registry();
    registerPulsarMetrics(registry, { messageCounters, publishBuffer });
    messageCounters.recordIn("persistent://public/default/a", 3, 300);
    messageCounters.recordOut("persistent://public/default/a", 2, 200);
    for (const topic of ["b", "c", "d"]) messageCounters.recordIn(`persistent://public/default/${topic}`, 1, 10);
    publishBuffer.add(4_096);
    const text = await registry.metrics();
    expect(text).toContain('nereus_pulsar_messages_in_total{topic="persistent://public/default/a"} 3');
    expect(text).toContain('nereus_pulsar_bytes_in_total{topic="persistent://public/default/a"} 300');
    expect(text).toContain('nereus_pulsar_messages_out_total{topic="persistent://public/default/a"} 2');
    expect(text).toContain('nereus_pulsar_bytes_out_total{topic="persistent://public/default/a"} 200');
    expect(text).toContain('nereus_pulsar_messages_in_total{topic="persistent://public/default/b"} 1');
    expect(text).toContain('nereus_pulsar_messages_in_total{topic="_other"} 2');
    expect(text).not.toContain("persistent://public/default/c");
    expect(text).toContain("nereus_pulsar_pending_publish_bytes 4096");
  });
});
