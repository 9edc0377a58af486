// Control: the Java kafka-clients interop scenario against Apache Kafka (KRaft single node from the Maven jars).
// It proves the driver and the scenario, so the same scenario failing on Nereus points at the broker.
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { type ApacheKafka, type JavaDriver, javaDriver, probeKafka, startApacheKafka } from "../src/index.js";
import { runAlterConfigsScenario } from "./support/alter-configs-scenario.js";
import { runDeleteRecordsScenario } from "./support/delete-records-scenario.js";
import { runLogDirsScenario } from "./support/log-dirs-scenario.js";
import { runPartitionsAndGroupsScenario } from "./support/partitions-and-groups-scenario.js";
import { runPerfModesScenario } from "./support/perf-modes-scenario.js";
import { runInteropScenario } from "./support/interop-scenario.js";

const log = (line: string): void => {
  process.stdout.write(`[apache-kafka] ${line}\n`);
};

describe("Java kafka-clients against Apache Kafka (control)", () => {
  let kafka: ApacheKafka;
  let driver: JavaDriver;
  let failed = false;

  beforeAll(async () => {
    [kafka, driver] = await Promise.all([startApacheKafka({ log }), javaDriver(log)]);
  });

  afterAll(async () => {
    if (failed) log(`keeping ${kafka.runDir} (logs of the failed test)`);
    await kafka?.stop(failed);
  });

  it("serves ApiVersions and Metadata to the probe", async () => {
    onTestFailed(() => {
      failed = true;
    });
    const probe = await probeKafka("127.0.0.1", kafka.port);
    expect(probe.brokers).toEqual([{ nodeId: 1, host: "127.0.0.1", port: kafka.port }]);
    expect(probe.apis.get(0)?.max).toBeGreaterThanOrEqual(9);
  });

  it("idempotent producer + consumer group of two: every record once, keys/headers intact, commits resume after a restart", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runInteropScenario(driver, kafka, { topic: "interop", group: "interop-group", log });
  });

  it("Admin deleteRecords moves the low watermark (and the earliest offset) and never lowers it", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runDeleteRecordsScenario(driver, kafka.bootstrap, "trimmed");
  });

  it("Admin describeLogDirs and describeReplicaLogDirs report one directory with every partition's size", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runLogDirsScenario(driver, kafka.bootstrap, "sized");
  });

  it("Admin incrementalAlterConfigs sets, appends, deletes, refuses a bad value and validates only", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runAlterConfigsScenario(driver, kafka.bootstrap, "configured");
  });

  it("Admin createPartitions grows a topic; deleteConsumerGroupOffsets and deleteConsumerGroups respect a member's subscription", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runPartitionsAndGroupsScenario(driver, kafka.bootstrap, "grown");
  });

  it("the bench's produce-perf and consume-perf modes: warm-up, then every measured record acknowledged and read back", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runPerfModesScenario(driver, kafka.bootstrap, "perf-modes");
  });
});
