// The Java kafka-clients DeleteRecords scenario, run unchanged against Apache Kafka (the control) and the Nereus
// broker: 100 records in one partition, Admin deleteRecords before offset 40 moves the low watermark (and the
// earliest offset listOffsets reads) to 40, a lower offset changes nothing, and -1 deletes up to the high watermark.
import { expect } from "vitest";
import { type DeleteRecordsResult, type JavaDriver, type ProduceResult, runDriver } from "../../src/index.js";

export async function runDeleteRecordsScenario(driver: JavaDriver, bootstrap: string, topic: string): Promise<void> {
  await runDriver(driver, "create-topic", { bootstrap, topic, partitions: 1 });
  const produced = await runDriver<ProduceResult>(driver, "produce", { bootstrap, topic, from: 0, count: 100 });
  expect(produced.acked).toBe(100);
  const deleteBefore = (offset: number): Promise<DeleteRecordsResult> =>
    runDriver<DeleteRecordsResult>(driver, "delete-records", { bootstrap, topic, partition: 0, offset });
  expect(await deleteBefore(40)).toEqual({ topic, partition: 0, lowWatermark: 40, earliest: 40, latest: 100 });
  expect(await deleteBefore(10)).toEqual({ topic, partition: 0, lowWatermark: 40, earliest: 40, latest: 100 });
  expect(await deleteBefore(-1)).toEqual({ topic, partition: 0, lowWatermark: 100, earliest: 100, latest: 100 });
}
