// The Java kafka-clients DescribeLogDirs scenario, run unchanged against Apache Kafka (the control) and the Nereus
// broker: a 2-partition topic with 200 records, then Admin describeLogDirs of every broker and
// describeReplicaLogDirs of the topic's partitions. One broker, one log directory without error, both partitions
// in it with a size in the range the records can take, no offset lag, no future log, the volume's total and usable
// bytes, and every replica's log directory is that one.
import { expect } from "vitest";
import { type JavaDriver, type LogDirsResult, type ProduceResult, runDriver } from "../../src/index.js";

const RECORDS = 200;

export async function runLogDirsScenario(driver: JavaDriver, bootstrap: string, topic: string): Promise<void> {
  await runDriver(driver, "create-topic", { bootstrap, topic, partitions: 2 });
  const produced = await runDriver<ProduceResult>(driver, "produce", { bootstrap, topic, from: 0, count: RECORDS });
  expect(produced.acked).toBe(RECORDS);
  const result = await runDriver<LogDirsResult>(driver, "log-dirs", { bootstrap, topic });
  expect(result.brokers).toHaveLength(1);
  const broker = result.brokers[0]!;
  expect(broker).toMatchObject({
    logDirs: 1,
    error: "none",
    offsetLagsZero: true,
    noFutureLogs: true,
    capacityReported: true,
    usableWithinTotal: true,
    replicaLogDirsMatch: true,
  });
  expect(Object.keys(broker.sizes)).toEqual(["0", "1"]);
  for (const size of Object.values(broker.sizes)) expect(size).toBeGreaterThan(0);
  // Values are 16-527 bytes with a key and five headers; a batch adds 61 bytes of header.
  const total = Object.values(broker.sizes).reduce((sum, size) => sum + size, 0);
  expect(total).toBeGreaterThan(RECORDS * 40);
  expect(total).toBeLessThan(RECORDS * 700 + 2 * 61 * RECORDS);
}
