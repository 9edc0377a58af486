// The Java kafka-clients interop scenario against the Nereus broker on the embedded default (filesystem objects +
// SQLite), started as a child process on free ports with a temp data directory, restarted in the middle.
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import {
  type JavaDriver,
  type NereusBroker,
  type InteropResult,
  javaDriver,
  probeKafka,
  runDriver,
  startNereusBroker,
} from "../src/index.js";
import { runAlterConfigsScenario } from "./support/alter-configs-scenario.js";
import { runDeleteRecordsScenario } from "./support/delete-records-scenario.js";
import { runLogDirsScenario } from "./support/log-dirs-scenario.js";
import { runPartitionsAndGroupsScenario } from "./support/partitions-and-groups-scenario.js";
import { runPerfModesScenario } from "./support/perf-modes-scenario.js";
import { runInteropScenario } from "./support/interop-scenario.js";

const log = (line: string): void => {
  process.stdout.write(`[nereus] ${line}\n`);
};

describe("Java kafka-clients against the Nereus broker (embedded default)", () => {
  let broker: NereusBroker;
  let driver: JavaDriver;
  let failed = false;

  beforeAll(async () => {
    [broker, driver] = await Promise.all([startNereusBroker({ log }), javaDriver(log)]);
  });

  afterAll(async () => {
    if (failed) log(`keeping ${broker.runDir} (logs and data of the failed test)`);
    await broker?.stop(failed);
  });

  it("serves ApiVersions and Metadata to the probe", async () => {
    onTestFailed(() => {
      failed = true;
    });
    const probe = await probeKafka("127.0.0.1", broker.port);
    expect(probe.brokers).toEqual([{ nodeId: 0, host: "127.0.0.1", port: broker.port }]);
  });

  it("idempotent producer + consumer group of two: every record once, keys/headers intact, commits resume after a restart", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runInteropScenario(driver, broker, { topic: "interop", group: "interop-group", log });
  });

  it("interop mode in one driver run (1 partition, a group of one)", async () => {
    onTestFailed(() => {
      failed = true;
    });
    const result = await runDriver<InteropResult>(driver, "interop", {
      bootstrap: broker.bootstrap,
      topic: "interop-one",
      partitions: 1,
      count: 500,
      group: "g-one",
      members: 1,
    });
    expect(result.produce.acked).toBe(500);
    expect({
      distinct: result.consume.distinct,
      duplicates: result.consume.duplicates,
      bad: result.consume.bad,
    }).toEqual({ distinct: 500, duplicates: 0, bad: 0 });
    expect(result.consume.committed["0"]).toEqual({ committed: 500, end: 500 });
  });

  it("Admin deleteRecords moves the low watermark (and the earliest offset) and never lowers it", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runDeleteRecordsScenario(driver, broker.bootstrap, "trimmed");
  });

  it("Admin describeLogDirs and describeReplicaLogDirs report one directory with every partition's size", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runLogDirsScenario(driver, broker.bootstrap, "sized");
  });

  it("Admin incrementalAlterConfigs sets, appends, deletes, refuses a bad value and validates only", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runAlterConfigsScenario(driver, broker.bootstrap, "configured");
  });

  it("Admin createPartitions grows a topic; deleteConsumerGroupOffsets and deleteConsumerGroups respect a member's subscription", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runPartitionsAndGroupsScenario(driver, broker.bootstrap, "grown");
  });

  it("the bench's produce-perf and consume-perf modes: warm-up, then every measured record acknowledged and read back", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await runPerfModesScenario(driver, broker.bootstrap, "perf-modes");
  });
});
