// Live capture: runs kcat (librdkafka) and kafkajs against the recording broker (test/recording-broker.ts), which
// answers with this package's encoders. Every frame a client sends must decode as a supported request, the client
// must report what the answers said, and when the installed client is the one a fixture was captured from, the
// live bytes must equal the frozen fixture (deterministic clients), so the fixtures cannot rot.
import { toHex } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { loadClientFixture } from "./client-fixtures.js";
import {
  CLIENT_SCENARIOS,
  CAPTURE_GROUP,
  CAPTURE_TOPIC,
  type ClientScenario,
  clientIdentity,
  runScenario,
} from "./client-scenarios.js";

/**
 * Frames as hex with the correlation id zeroed and immediate repeats collapsed: clients refresh metadata a
 * timing-dependent number of times, which shifts correlation ids but changes nothing else.
 */
function normalize(frames: readonly Uint8Array[]): string[] {
  const out: string[] = [];
  for (const frame of frames) {
    const text = toHex(frame.subarray(0, 4)) + "00000000" + toHex(frame.subarray(8));
    if (out[out.length - 1] !== text) out.push(text);
  }
  return out;
}

const EXPECTATIONS: Record<string, (output: unknown) => void> = {
  "kcat-metadata": (output) => {
    expect(output).toMatchObject({
      brokers: [{ id: 1 }],
      topics: [
        { topic: CAPTURE_TOPIC, partitions: [{ partition: 0, leader: 1, replicas: [{ id: 1 }], isrs: [{ id: 1 }] }] },
      ],
    });
  },
  "kafkajs-metadata": (output) => {
    expect(output).toEqual({
      topics: [
        {
          name: CAPTURE_TOPIC,
          partitions: [
            { partitionErrorCode: 0, partitionId: 0, leader: 1, replicas: [1], isr: [1], offlineReplicas: [] },
          ],
        },
      ],
    });
  },
  "kcat-produce-without-fetch": (output) => {
    expect(output).toMatchObject({ code: 0 });
  },
  "kcat-produce": (output) => {
    expect(output).toMatchObject({ code: 0 });
  },
  "kcat-produce-gzip": (output) => {
    expect(output).toMatchObject({ code: 0 });
  },
  "kcat-consume": (output) => {
    expect(output).toMatchObject({ code: 0, stdout: "k1=v1 @0 headers:h=x\n" });
  },
  "kcat-consumer-group": (output) => {
    expect(output).toMatchObject({ code: 0, stdout: "k1=v1 @0\n" });
  },
  "kafkajs-consumer-group": (output) => {
    expect(output).toBe("k1=v1 @0");
  },
  "kcat-idempotent-produce": (output) => {
    expect(output).toMatchObject({ code: 0 });
  },
  "kafkajs-idempotent-produce": (output) => {
    expect(output).toEqual([
      {
        topicName: CAPTURE_TOPIC,
        partition: 0,
        errorCode: 0,
        baseOffset: "0",
        logAppendTime: "-1",
        logStartOffset: "0",
      },
    ]);
  },
  "kafkajs-admin": (output) => {
    expect(output).toMatchObject({
      created: true,
      configs: {
        resources: [
          {
            resourceName: "orders",
            configEntries: [{ configName: "cleanup.policy", configValue: "delete", isDefault: true }],
          },
        ],
      },
      groups: { groups: [{ groupId: CAPTURE_GROUP, protocolType: "consumer" }] },
      described: { groups: [{ groupId: CAPTURE_GROUP, state: "Empty", protocolType: "consumer", members: [] }] },
    });
  },
  "kafkajs-offsets": (output) => {
    expect(output).toEqual([{ partition: 0, offset: "1", high: "1", low: "0" }]);
  },
  "kafkajs-produce": (output) => {
    expect(output).toEqual([
      {
        topicName: CAPTURE_TOPIC,
        partition: 0,
        errorCode: 0,
        baseOffset: "0",
        logAppendTime: "-1",
        logStartOffset: "0",
      },
    ]);
  },
};

describe.each(
  CLIENT_SCENARIOS.map((scenario): [string, ClientScenario] => [`${scenario.client}-${scenario.name}`, scenario]),
)("%s", (name, scenario) => {
  it("decodes every request the real client sends, and the client accepts the encoded answers", async () => {
    const { broker, output } = await runScenario(scenario);
    expect(broker.errors).toEqual([]);
    expect(broker.frames.length).toBeGreaterThan(0);
    for (const recorded of broker.frames) {
      if (recorded.decoded instanceof Error) throw recorded.decoded;
      expect(recorded.decoded.kind, toHex(recorded.frame)).toBe("request");
    }
    const expectation = EXPECTATIONS[name];
    expect(expectation, `no expectation for scenario ${name}`).toBeDefined();
    expectation?.(output);

    const fixture = loadClientFixture(name);
    if (fixture.client === (await clientIdentity(scenario.client)).version) {
      const live = normalize(broker.frames.map((recorded) => recorded.frame));
      const frozen = normalize(fixture.frames.map(({ frame }) => frame));
      const count = scenario.reproducibleFrames ?? Math.max(live.length, frozen.length);
      expect(live.slice(0, count)).toEqual(frozen.slice(0, count));
    }
  });
});
