// The Java kafka-clients IncrementalAlterConfigs scenario, run unchanged against Apache Kafka (the control) and the
// Nereus broker: SET, APPEND to a list config, DELETE, a refused value and a validateOnly change, each followed by
// DescribeConfigs of the topic's explicitly set configs.
import { expect } from "vitest";
import { type AlterConfigsResult, type JavaDriver, runDriver } from "../../src/index.js";

export async function runAlterConfigsScenario(driver: JavaDriver, bootstrap: string, topic: string): Promise<void> {
  await runDriver(driver, "create-topic", { bootstrap, topic, partitions: 1 });
  const afterSteps = { "cleanup.policy": "delete,compact", "retention.ms": "3600000" };
  expect(await runDriver<AlterConfigsResult>(driver, "alter-configs", { bootstrap, topic })).toEqual({
    set: { "max.message.bytes": "2000", "retention.ms": "3600000" },
    appendDelete: afterSteps,
    refused: "InvalidConfigurationException",
    afterRefusal: afterSteps,
    afterValidateOnly: afterSteps,
  });
}
