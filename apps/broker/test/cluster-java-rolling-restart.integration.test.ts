// Rolling restart of a three-broker cluster (child processes, membership on, etcd + s3proxy) under Apache Kafka's
// Java client: two idempotent acks=all producers and a consumer group of three members, each bootstrapped at a
// different broker (support/java-cluster-run.ts). Each broker in turn is stopped with SIGTERM — it drains, handing
// its partitions and groups over before it closes — and started again. No client sees a non-retriable error (no
// send fails, no commit fails for good, no client stops), every acknowledged record is in the log exactly once at
// its offset, and the group consumed all of them. The hand-over time of a stop runs from the SIGTERM until every
// partition the broker led has acknowledged a record sent after it; it stays far below the lease TTL.
import type { JavaProgram } from "@nereus/test-services";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { compileJavaClient } from "./support/java-client.js";
import { JavaClusterRun, percentile } from "./support/java-cluster-run.js";

const PARTITIONS = 6;
/** Long, so that a hand-over that waited for the lease to lapse would show. */
const LEASE_TTL_MS = 30_000;

let program: JavaProgram | undefined;
const runs: JavaClusterRun[] = [];

beforeAll(async () => {
  program = await compileJavaClient("kafka", "ClusterKafkaClients");
}, 300_000);
afterAll(() => program?.dispose());
afterEach(async () => {
  for (const run of runs.splice(0)) await run.dispose();
});

describe("Java kafka-clients in a three-broker cluster", () => {
  test("a rolling restart hands every broker's partitions over before it stops", async () => {
    const run = await JavaClusterRun.start(program!, { leaseTtlMs: LEASE_TTL_MS, partitions: PARTITIONS });
    runs.push(run);
    await run.produced(300, 90_000);
    const handovers: number[] = [];
    for (const nodeId of [1, 2, 3]) {
      const leaders = await run.leaders();
      const moved = leaders.flatMap((leader, partition) => (leader === nodeId ? [partition] : []));
      const stoppedAt = Date.now();
      const exit = await run.stopBroker(nodeId, "SIGTERM");
      expect(exit.code).toBe(0);
      const handover = await run.movedWithin(moved, stoppedAt);
      handovers.push(handover);
      expect(handover).toBeLessThan(LEASE_TTL_MS);
      const restartedAt = Date.now();
      await run.startBroker(nodeId);
      console.log(
        `rolling restart: broker ${String(nodeId)} handed ${String(moved.length)} partitions over in ` +
          `${String(handover)} ms, started again in ${String(Date.now() - restartedAt)} ms`,
      );
      await run.produced(200);
    }
    const { acknowledged, redelivered } = await run.finish();
    expect(redelivered).toBeLessThan(acknowledged / 2);
    console.log(
      `rolling restart with Java kafka-clients (lease TTL ${String(LEASE_TTL_MS)} ms): hand-over ` +
        `p50 ${String(percentile(handovers, 0.5))} ms, max ${String(Math.max(...handovers))} ms; ` +
        `${String(acknowledged)} records acknowledged, ${String(redelivered)} re-delivered to the group`,
    );
  }, 300_000);
});
