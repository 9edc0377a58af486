// Topic creation cost against the number of topics that exist: a Kafka broker on the embedded default (SQLite
// metadata and the filesystem object store, opened by `openStorage` from the default config in a temporary data
// directory) creates N topics of one partition, one CreateTopics request each, through a connection of the broker
// (no socket). Prints the mean time per topic of the first and of the last 1,000 creations and their ratio (the
// first 1,000 are the baseline, measured in the same run), and the mean of every 1,000 in order. A ratio near 1 means creation does not grow with the
// number of topics; a listing of every topic per creation (what the collision check used to do) makes it grow
// linearly. Then the time of one id lookup (Metadata by topic id) with N topics, against one by name.
//
// Run: `pnpm exec tsx --conditions=@nereus/source bench/topic-creation.ts` in apps/broker.
// Environment: NEREUS_BENCH_TOPICS (N, default 10,000), NEREUS_BENCH_DURABILITY ("fsync", the default, or
// "os-buffered": the embedded stores' `storage.durability`).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createKafkaBroker } from "@nereus/kafka";
import { decodeResponse, encodeRequest } from "@nereus/kafka/protocol";
import { BrokerConfigSchema } from "../src/config/broker-config.js";
import { PinoBrokerLogger } from "../src/logging/broker-logger.js";
import { openStorage } from "../src/storage/open-storage.js";

const TOPICS = Number(process.env.NEREUS_BENCH_TOPICS ?? 10_000);
if (!Number.isSafeInteger(TOPICS) || TOPICS < 2_000)
  throw new Error(`NEREUS_BENCH_TOPICS must be an integer >= 2000, got ${String(TOPICS)}`);
const WINDOW = 1_000;
const DURABILITY = process.env.NEREUS_BENCH_DURABILITY ?? "fsync";
const ZERO_UUID = "00000000-0000-0000-0000-000000000000";

function mean(samples: readonly number[]): number {
  return samples.reduce((sum, sample) => sum + sample, 0) / samples.length;
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), "nereus-topic-creation-"));
  try {
    const dataDir = path.join(root, "data");
    mkdirSync(dataDir);
    const config = BrokerConfigSchema.parse({ dataDir, storage: { durability: DURABILITY } });
    const logger = new PinoBrokerLogger({ level: "error", sink: { write: () => true } });
    const storage = await openStorage({ config, writerId: "topic-creation-bench", logger });
    const broker = createKafkaBroker({
      store: storage.store,
      metadata: storage.metadata,
      cluster: config.cluster,
      nodeId: 0,
      advertisedHost: "127.0.0.1",
      advertisedPort: 9092,
      retentionCheckIntervalMs: 0,
      maxPartitionsPerBroker: TOPICS + 1,
    });
    const connection = broker.openConnection("bench");
    let correlationId = 0;
    const call = async <K extends 3 | 19>(
      apiKey: K,
      apiVersion: number,
      body: Parameters<typeof encodeRequest<K>>[1],
    ) => {
      correlationId += 1;
      const frame = encodeRequest({ apiKey, apiVersion, correlationId, clientId: "bench" }, body).subarray(4);
      const response = await connection.handleFrame(frame);
      if (response === undefined) throw new Error("no response");
      return decodeResponse({ apiKey, apiVersion }, response.subarray(4)).body;
    };
    try {
      const perTopicMs: number[] = [];
      let lastId = ZERO_UUID;
      for (let index = 0; index < TOPICS; index += 1) {
        const name = `bench-${String(index).padStart(6, "0")}`;
        const started = performance.now();
        const response = await call(19, 7, {
          topics: [{ name, numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }],
          timeoutMs: 30_000,
          validateOnly: false,
        });
        perTopicMs.push(performance.now() - started);
        const topic = response.topics[0];
        if (topic?.errorCode !== 0)
          throw new Error(`creating ${name} failed: ${String(topic?.errorCode)} ${String(topic?.errorMessage)}`);
        lastId = topic.topicId;
      }
      const first = mean(perTopicMs.slice(0, WINDOW));
      const last = mean(perTopicMs.slice(-WINDOW));
      console.log(
        `[topic-creation] ${String(TOPICS)} topics of 1 partition, one CreateTopics each, embedded SQLite metadata, durability ${DURABILITY}`,
      );
      console.log(
        `[topic-creation] first ${String(WINDOW)}: ${first.toFixed(3)} ms/topic; last ${String(WINDOW)}: ${last.toFixed(3)} ms/topic; last/first ${(last / first).toFixed(2)}`,
      );
      const windows: string[] = [];
      for (let start = 0; start + WINDOW <= TOPICS; start += WINDOW)
        windows.push(mean(perTopicMs.slice(start, start + WINDOW)).toFixed(3));
      console.log(`[topic-creation] ms/topic per ${String(WINDOW)}, in order: ${windows.join(" ")}`);

      const lookups = 1_000;
      const metadataOf = (topic: { name: string | null; topicId: string }) => ({
        topics: [topic],
        allowAutoTopicCreation: false,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      });
      let started = performance.now();
      for (let index = 0; index < lookups; index += 1)
        await call(3, 12, metadataOf({ name: `bench-${String(index).padStart(6, "0")}`, topicId: ZERO_UUID }));
      const byName = (performance.now() - started) / lookups;
      started = performance.now();
      for (let index = 0; index < lookups; index += 1) await call(3, 12, metadataOf({ name: null, topicId: lastId }));
      const byId = (performance.now() - started) / lookups;
      console.log(
        `[topic-creation] Metadata with ${String(TOPICS)} topics: by name ${byName.toFixed(3)} ms, by id ${byId.toFixed(3)} ms; id/name ${(byId / byName).toFixed(2)}`,
      );
    } finally {
      connection.close();
      await broker.close();
      await storage.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
