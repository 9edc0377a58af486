// Live capture: runs kcat (librdkafka) and kafkajs against the recording broker (test/recording-broker.ts), which
// answers with this package's encoders. Every frame a client sends must decode as a supported request, the client
// must report what the answers said, and when the installed client is the one a fixture was captured from, the
// live bytes must equal the frozen fixture (deterministic clients), so the fixtures cannot rot.
import { toHex } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { loadClientFixture } from "./client-fixtures.js";
import { CLIENT_SCENARIOS, CAPTURE_TOPIC, type ClientScenario, clientIdentity, runScenario } from "./client-scenarios.js";

const EXPECTATIONS: Record<string, (output: unknown) => void> = {
  "kcat-metadata": (output) => {
    expect(output).toMatchObject({
      brokers: [{ id: 1 }],
      topics: [{ topic: CAPTURE_TOPIC, partitions: [{ partition: 0, leader: 1, replicas: [{ id: 1 }], isrs: [{ id: 1 }] }] }],
    });
  },
  "kafkajs-metadata": (output) => {
    expect(output).toEqual({
      topics: [{ name: CAPTURE_TOPIC, partitions: [{ partitionErrorCode: 0, partitionId: 0, leader: 1, replicas: [1], isr: [1], offlineReplicas: [] }] }],
    });
  },
  "kcat-produce-without-fetch": (output) => {
    expect(output).toMatchObject({ code: 0 });
  },
  "kafkajs-produce": (output) => {
    expect(output).toEqual([{ topicName: CAPTURE_TOPIC, partition: 0, errorCode: 0, baseOffset: "0", logAppendTime: "-1", logStartOffset: "0" }]);
  },
};

describe.each(CLIENT_SCENARIOS.map((scenario): [string, ClientScenario] => [`${scenario.client}-${scenario.name}`, scenario]))("%s", (name, scenario) => {
  it("decodes every request the real client sends, and the client accepts the encoded answers", async () => {
    const { broker, output } = await runScenario(scenario);
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
      expect(broker.frames.map((recorded) => toHex(recorded.frame))).toEqual(fixture.frames.map(({ frame }) => toHex(frame)));
    }
  });
});
