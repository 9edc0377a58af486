// Control: Apache Pulsar 4.2.4 standalone from the Maven jars, started once, with the benchmark's Java driver run
// small through each of its modes. It proves the launcher (ready means a producer can be created), the driver and its
// figures, so the same modes failing on Nereus point at the broker.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import {
  type ApachePulsar,
  type ConsumeResult,
  type CreateTopicResult,
  type LatencyResult,
  type ProduceResult,
  type PulsarDriver,
  probePulsar,
  pulsarDriver,
  runPulsarDriver,
  startApachePulsar,
} from "../src/index.js";

const log = (line: string): void => {
  process.stdout.write(`[apache-pulsar] ${line}\n`);
};

const MESSAGES = 2_000;
const SIZE = 256;

describe("Apache Pulsar standalone and the Java perf driver (control)", () => {
  let pulsar: ApachePulsar;
  let driver: PulsarDriver;
  let failed = false;

  beforeAll(async () => {
    [pulsar, driver] = await Promise.all([startApachePulsar({ heapMb: 512, log }), pulsarDriver(log)]);
  });

  afterAll(async () => {
    if (pulsar === undefined) return;
    if (failed) log(`keeping ${pulsar.runDir} (logs of the failed test)`);
    const { runDir, pid } = pulsar;
    await pulsar.stop(failed);
    expect(() => process.kill(pid, 0)).toThrow();
    if (!failed) expect(fs.existsSync(runDir)).toBe(false);
  });

  it("is ready: the admin API answers and a producer is created over the binary protocol", async () => {
    onTestFailed(() => {
      failed = true;
    });
    expect(pulsar.probe.serverVersion).toContain("4.2.4");
    const clusters = (await (await fetch(`${pulsar.adminUrl}/admin/v2/clusters`)).json()) as unknown;
    expect(clusters).toEqual(["standalone"]);
    const probe = await probePulsar("127.0.0.1", pulsar.layout.brokerPort, "persistent://public/default/probe-again");
    expect(probe.producerName).not.toBe("");
    const conf = fs.readFileSync(`${pulsar.runDir}/standalone.conf`, "utf8");
    expect(conf).toMatch(/^journalSyncData=true$/m);
  });

  it("produce and consume on a non-partitioned topic: every message acknowledged, each read once", async () => {
    onTestFailed(() => {
      failed = true;
    });
    const url = { "service-url": pulsar.serviceUrl };
    const produced = await runPulsarDriver<ProduceResult>(driver, "produce", {
      ...url,
      topic: "solo",
      messages: MESSAGES,
      size: SIZE,
      warmup: 500,
    });
    expect(produced).toMatchObject({ messages: MESSAGES, bytes: MESSAGES * SIZE, errors: 0, partitions: 1 });
    expect(produced.mbPerSec).toBeGreaterThan(0);
    expect(produced.p99Ms).toBeGreaterThanOrEqual(produced.p50Ms);
    const consumed = await runPulsarDriver<ConsumeResult>(driver, "consume", {
      ...url,
      topic: "solo",
      messages: MESSAGES,
      "warmup-topic": "solo-warmup",
      warmup: 500,
      "timeout-ms": 60_000,
    });
    expect(consumed).toMatchObject({ distinct: MESSAGES, duplicates: 0, bytes: MESSAGES * SIZE, timedOut: false });
    expect(consumed.mbPerSec).toBeGreaterThan(0);
  });

  it("a partitioned topic made through the admin API: produce, consume every partition, latency at a fixed rate", async () => {
    onTestFailed(() => {
      failed = true;
    });
    const url = { "service-url": pulsar.serviceUrl };
    const created = await runPulsarDriver<CreateTopicResult>(driver, "create-topic", {
      ...url,
      "admin-url": pulsar.adminUrl,
      topic: "split,split-latency",
      partitions: 3,
    });
    expect(created).toEqual({ topics: 2, partitions: 3 });
    const produced = await runPulsarDriver<ProduceResult>(driver, "produce", {
      ...url,
      topic: "split",
      messages: MESSAGES,
      size: SIZE,
    });
    expect(produced).toMatchObject({ messages: MESSAGES, errors: 0, partitions: 3 });
    const consumed = await runPulsarDriver<ConsumeResult>(driver, "consume", {
      ...url,
      topic: "split",
      messages: MESSAGES,
      "timeout-ms": 60_000,
    });
    expect(consumed).toMatchObject({ distinct: MESSAGES, duplicates: 0, partitions: 3, timedOut: false });
    const latency = await runPulsarDriver<LatencyResult>(driver, "latency", {
      ...url,
      topic: "split-latency",
      size: SIZE,
      rate: 200,
      seconds: 2,
      "warmup-seconds": 1,
    });
    expect(latency).toMatchObject({ messages: 400, errors: 0, partitions: 3 });
    expect(latency.p50Ms).toBeGreaterThan(0);
    expect(latency.p99Ms).toBeGreaterThanOrEqual(latency.p50Ms);
    expect(latency.maxMs).toBeGreaterThanOrEqual(latency.p99Ms);
  });

  it("reports a failing mode as one driver line with its log", async () => {
    onTestFailed(() => {
      failed = true;
    });
    await expect(
      runPulsarDriver(driver, "create-topic", {
        "service-url": pulsar.serviceUrl,
        "admin-url": pulsar.adminUrl,
        topic: "split",
        partitions: 3,
      }),
    ).rejects.toThrow(
      /pulsar-baseline: driver: create-topic: create-topic failed: .*Conflict.* \(log: .*create-topic\.log\)/,
    );
  });
});
