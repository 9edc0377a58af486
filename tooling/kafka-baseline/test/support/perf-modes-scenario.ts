// The bench's two driver modes (`produce-perf`, `consume-perf`), run unchanged against Apache Kafka (the control) and
// the Nereus broker, small: a warm-up to one topic, then the measured records to another; every record is
// acknowledged without error and read back with its bytes, and the client's CPU and JIT time of each measured phase
// (and the producer's request means and sampled requests in flight) are reported; asked for one record more, the reader times out with exactly the
// measured records (the warm-up's are not counted).
import { expect } from "vitest";
import { type ConsumePerfResult, type JavaDriver, type ProducePerfResult, runDriver } from "../../src/index.js";

const RECORDS = 3_000;
const WARMUP = 1_000;
const SIZE = 512;

export async function runPerfModesScenario(driver: JavaDriver, bootstrap: string, topic: string): Promise<void> {
  const warmupTopic = `${topic}-warmup`;
  for (const t of [topic, warmupTopic]) await runDriver(driver, "create-topic", { bootstrap, topic: t, partitions: 1 });
  const produced = await runDriver<ProducePerfResult>(driver, "produce-perf", {
    bootstrap,
    topic,
    records: RECORDS,
    size: SIZE,
    warmup: WARMUP,
  });
  expect({ records: produced.records, errors: produced.errors }).toEqual({ records: RECORDS, errors: 0 });
  expect(produced.p50Ms).toBeGreaterThan(0);
  expect(produced.p99Ms).toBeGreaterThanOrEqual(produced.p50Ms);
  // The client's own cost of the measured phase (HotSpot reports both).
  expect(produced.clientCpuMs).toBeGreaterThan(0);
  expect(produced.clientJitMs).toBeGreaterThanOrEqual(0);
  // The producer's own request means: a round trip, and batches that hold records of SIZE bytes (a record of a
  // batch carries a few bytes of framing besides its value; a request holds the one partition's batch).
  expect(produced.requestLatencyAvgMs).toBeGreaterThan(0);
  expect(produced.recordsPerRequestAvg).toBeGreaterThanOrEqual(1);
  expect(produced.batchSizeAvg).toBeGreaterThan(SIZE);
  // The sampled requests-in-flight gauge over the measured loop: some request was out most of the time, and never
  // more than the window of 5 on each of the client's connections (the broker's, and the bootstrap one).
  expect(produced.requestsInFlightMean).toBeGreaterThan(0);
  expect(produced.requestsInFlightMean).toBeLessThanOrEqual(10);
  const consumed = await runDriver<ConsumePerfResult>(driver, "consume-perf", {
    bootstrap,
    topic,
    records: RECORDS,
    "timeout-ms": 60_000,
    warmup: WARMUP,
    "warmup-topic": warmupTopic,
  });
  expect({ records: consumed.records, bytes: consumed.bytes, timedOut: consumed.timedOut }).toEqual({
    records: RECORDS,
    bytes: RECORDS * SIZE,
    timedOut: false,
  });
  expect(consumed.clientCpuMs).toBeGreaterThan(0);
  expect(consumed.clientJitMs).toBeGreaterThanOrEqual(0);
  const overAsked = await runDriver<ConsumePerfResult>(driver, "consume-perf", {
    bootstrap,
    topic,
    records: RECORDS + 1,
    "timeout-ms": 3_000,
    warmup: WARMUP,
    "warmup-topic": warmupTopic,
  });
  expect({ records: overAsked.records, timedOut: overAsked.timedOut }).toEqual({ records: RECORDS, timedOut: true });
}
