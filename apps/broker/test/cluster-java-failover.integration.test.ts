// kill -9 of a broker in a three-broker cluster (child processes, membership on, etcd + s3proxy, lease TTL 3 s) under
// Apache Kafka's Java client: two idempotent acks=all producers and a consumer group of three members, each member
// bootstrapped at a different broker (support/java-cluster-run.ts). Each round kills a broker (the group's coordinator
// in even rounds, a partition's leader in odd ones) and, but for the last round, starts it again. The failover time
// of a round runs from the kill until every partition the victim led has acknowledged a record sent after the kill.
// Afterwards no send failed, every acknowledged record is in the log exactly once at the offset it was acknowledged
// with, and the group consumed all of them, resuming from its committed offsets after each move. Rounds:
// NEREUS_CLUSTER_JAVA_KILLS (default 1; 20 for the failover figure).
import type { JavaProgram } from "@nereus/test-services";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { compileJavaClient } from "./support/java-client.js";
import { JavaClusterRun, percentile } from "./support/java-cluster-run.js";

const PARTITIONS = 6;
const KILLS = Number(process.env.NEREUS_CLUSTER_JAVA_KILLS ?? "1");
const LEASE_TTL_MS = 3_000;
/**
 * Kill to acknowledgement on every moved partition: the lease TTL plus this much for the clients' retries, the
 * claims and the first appends, on a machine whose cores the brokers, etcd, S3 and the JVMs share.
 */
const FAILOVER_BOUND_MS = LEASE_TTL_MS + 57_000;

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
  test(
    `kill -9 of a leader moves its partitions and the group within the lease TTL and a bound (${String(KILLS)} rounds)`,
    async () => {
      const run = await JavaClusterRun.start(program!, { leaseTtlMs: LEASE_TTL_MS, partitions: PARTITIONS });
      runs.push(run);
      await run.produced(300, 90_000);
      let groupMoves = 0;
      const failovers: number[] = [];
      for (let round = 0; round < KILLS; round += 1) {
        const leaders = await run.leaders();
        // Even rounds take the group's coordinator, odd rounds a partition's leader.
        const coordinator = await run.coordinator(run.liveNodeIds[0]!);
        const victim = round % 2 === 0 ? coordinator : leaders[round % PARTITIONS]!;
        if (victim === coordinator) groupMoves += 1;
        const moved = leaders.flatMap((leader, partition) => (leader === victim ? [partition] : []));
        const killedAt = Date.now();
        await run.stopBroker(victim, "SIGKILL");
        const what = `kill -9 round ${String(round + 1)}: broker ${String(victim)} (${String(moved.length)} partitions${
          victim === coordinator ? ", the group's coordinator" : ""
        })`;
        if (moved.length > 0) {
          const failover = await run.movedWithin(moved, killedAt);
          failovers.push(failover);
          console.log(`${what} failed over in ${String(failover)} ms`);
          expect(failover).toBeLessThan(FAILOVER_BOUND_MS);
        } else {
          // A coordinator that leads no partition: the producers go on, the group moves (checked at the end).
          await run.produced(200);
          console.log(what);
        }
        if (round === KILLS - 1) break;
        await run.startBroker(victim);
        await run.produced(200);
      }
      const { acknowledged, redelivered } = await run.finish();
      // Re-deliveries after a move come from the committed offsets, so they are a small part of what was consumed.
      expect(redelivered).toBeLessThan(acknowledged / 2);
      const figure =
        failovers.length === 0
          ? "no victim led a partition"
          : `p50 ${String(percentile(failovers, 0.5))} ms, max ${String(Math.max(...failovers))} ms`;
      console.log(
        `cluster failover with Java kafka-clients over ${String(KILLS)} kill -9 rounds ` +
          `(lease TTL ${String(LEASE_TTL_MS)} ms): ${figure}; ${String(acknowledged)} records acknowledged, ` +
          `${String(redelivered)} re-delivered to the group, whose coordinator was killed ${String(groupMoves)} times`,
      );
    },
    120_000 + KILLS * 60_000,
  );
});
