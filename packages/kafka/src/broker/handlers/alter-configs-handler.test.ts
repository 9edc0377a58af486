import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, type TestClient, batchOf } from "../../../test/broker-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";

const TOPIC = 2;
const BROKER = 4;

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

/** The topic's explicitly set configs, as DescribeConfigs reports them (source DYNAMIC_TOPIC_CONFIG), but its profile. */
async function explicitConfigs(client: TestClient, topic: string): Promise<Record<string, string | null>> {
  const response = await client.request(32, 4, {
    resources: [{ resourceType: TOPIC, resourceName: topic, configurationKeys: null }],
    includeSynonyms: false,
    includeDocumentation: false,
  });
  const result = response.results[0];
  expect(result?.errorCode).toBe(0);
  return Object.fromEntries(
    (result?.configs ?? [])
      .filter((config) => config.configSource === 1 && config.name !== "nereus.storage.profile")
      .map((config) => [config.name, config.value]),
  );
}

async function alter(
  client: TestClient,
  resourceName: string,
  configs: Array<{ name: string; value: string | null }>,
  options: { validateOnly?: boolean; resourceType?: number; version?: number } = {},
) {
  const response = await client.request(33, options.version ?? 2, {
    resources: [{ resourceType: options.resourceType ?? TOPIC, resourceName, configs }],
    validateOnly: options.validateOnly ?? false,
  });
  return response.responses[0];
}

async function alterIncrementally(
  client: TestClient,
  resourceName: string,
  configs: Array<{ name: string; configOperation: number; value: string | null }>,
  options: { validateOnly?: boolean; version?: number } = {},
) {
  const response = await client.request(44, options.version ?? 1, {
    resources: [{ resourceType: TOPIC, resourceName, configs }],
    validateOnly: options.validateOnly ?? false,
  });
  return response.responses[0];
}

describe("AlterConfigs and IncrementalAlterConfigs", () => {
  test("AlterConfigs replaces the topic's whole config set; IncrementalAlterConfigs changes single configs; both survive a restart", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("orders", 1, { "retention.ms": "60000", "max.message.bytes": "2000" });
    expect(
      await alter(client, "orders", [{ name: "cleanup.policy", value: "compact,delete" }], { version: 0 }),
    ).toEqual({ errorCode: 0, errorMessage: null, resourceType: TOPIC, resourceName: "orders" });
    expect(await explicitConfigs(client, "orders")).toEqual({ "cleanup.policy": "compact,delete" });
    expect(
      await alterIncrementally(client, "orders", [
        { name: "retention.ms", configOperation: 0, value: "1000" },
        { name: "cleanup.policy", configOperation: 3, value: "compact" },
      ]),
    ).toMatchObject({ errorCode: 0, errorMessage: null });
    expect(await explicitConfigs(client, "orders")).toEqual({ "cleanup.policy": "delete", "retention.ms": "1000" });
    await harness.restart();
    expect(await explicitConfigs(harness.connect(), "orders")).toEqual({
      "cleanup.policy": "delete",
      "retention.ms": "1000",
    });
  });

  test("validateOnly, refusals and unknown resources change nothing; each resource is answered on its own", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("kept", 1, { "retention.ms": "60000" });
    expect(await alter(client, "kept", [{ name: "retention.ms", value: "5" }], { validateOnly: true })).toMatchObject({
      errorCode: 0,
    });
    expect(
      await alter(client, "kept", [{ name: "retention.ms", value: "soon" }], { validateOnly: true }),
    ).toMatchObject({ errorCode: KafkaErrorCode.INVALID_CONFIG });
    expect(await alter(client, "kept", [{ name: "retention.ms", value: "soon" }])).toMatchObject({
      errorCode: KafkaErrorCode.INVALID_CONFIG,
      errorMessage: expect.stringContaining("retention.ms"),
    });
    expect(
      await alterIncrementally(client, "kept", [
        { name: "segment.ms", configOperation: 0, value: "1" },
        { name: "nope", configOperation: 0, value: "1" },
      ]),
    ).toMatchObject({ errorCode: KafkaErrorCode.INVALID_CONFIG });
    expect(
      await alterIncrementally(client, "kept", [
        { name: "nereus.storage.profile", configOperation: 0, value: "BOOKKEEPER_WAL_SYNC_OBJECT" },
      ]),
    ).toMatchObject({ errorCode: KafkaErrorCode.INVALID_CONFIG });
    expect(await alter(client, "missing", [{ name: "retention.ms", value: "1" }])).toMatchObject({
      errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
    expect(
      await alter(client, "1", [{ name: "log.retention.ms", value: "1" }], { resourceType: BROKER }),
    ).toMatchObject({ errorCode: KafkaErrorCode.INVALID_REQUEST });
    expect(await explicitConfigs(client, "kept")).toEqual({ "retention.ms": "60000" });
    const both = await client.request(44, 1, {
      resources: [
        {
          resourceType: TOPIC,
          resourceName: "missing",
          configs: [{ name: "retention.ms", configOperation: 0, value: "1" }],
        },
        {
          resourceType: TOPIC,
          resourceName: "kept",
          configs: [{ name: "retention.ms", configOperation: 0, value: "7" }],
        },
      ],
      validateOnly: false,
    });
    expect(both.responses.map((result) => [result.resourceName, result.errorCode])).toEqual([
      ["missing", KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
      ["kept", 0],
    ]);
    expect(await explicitConfigs(client, "kept")).toEqual({ "retention.ms": "7" });
  });

  test("a storage failure is a retriable error and changes nothing", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("flaky", 1, { "retention.ms": "60000" });
    harness.metadata.faults.add({ op: "txn", mode: "fail-before-apply" });
    const failed = await alterIncrementally(client, "flaky", [
      { name: "retention.ms", configOperation: 0, value: "1" },
    ]);
    expect(failed?.errorCode).toBe(KafkaErrorCode.KAFKA_STORAGE_ERROR);
    expect(await explicitConfigs(client, "flaky")).toEqual({ "retention.ms": "60000" });
  });

  test("the new limits apply at once: max.message.bytes to the next produce, retention.ms to the next sweep", async () => {
    const now = { value: 1_800_000_000_000 };
    harness = new BrokerHarness({ clock: () => now.value, retentionCheckIntervalMs: 0 });
    const client = harness.connect();
    await client.createTopic("limits");
    await client.produce("limits", 0, batchOf(["old"], { baseTimestamp: now.value - 120_000 }));
    expect((await harness.broker.enforceRetention()).deletedRecords).toBe(0);
    expect(
      await alterIncrementally(client, "limits", [
        { name: "retention.ms", configOperation: 0, value: "60000" },
        { name: "max.message.bytes", configOperation: 0, value: "10" },
      ]),
    ).toMatchObject({ errorCode: 0 });
    expect((await harness.broker.enforceRetention()).deletedRecords).toBe(1);
    expect(
      await client.produce("limits", 0, batchOf(["too large for ten bytes"], { baseTimestamp: now.value })),
    ).toMatchObject({ errorCode: KafkaErrorCode.MESSAGE_TOO_LARGE });
  });
});
