// Produce throughput of a cluster of one broker against one of three (child processes, membership on, etcd + S3
// from NEREUS_SERVICES_FILE, see tooling/services): kcat sends the same records (acks=all, one topic of 12
// partitions) to each cluster, bootstrapped at every broker, and the bench prints MB/s of record values for each
// and their ratio. Every record must be stored: the partitions' end offsets must add up to the records sent, or the
// bench fails. On a machine with few cores the brokers, the services and kcat share them, so the ratio says more
// about the machine than about the cluster; it is printed for the record.
//
// Run: `NEREUS_SERVICES_FILE=/tmp/services.json pnpm exec tsx --conditions=@nereus/source bench/cluster-throughput.ts`
// in apps/broker. Environment: NEREUS_BENCH_RECORDS (default 200,000), NEREUS_BENCH_RECORD_BYTES (default 1,000).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { loadServices } from "@nereus/test-services";
import { Kafka, logLevel } from "kafkajs";

const RECORDS = Number(process.env.NEREUS_BENCH_RECORDS ?? 200_000);
const RECORD_BYTES = Number(process.env.NEREUS_BENCH_RECORD_BYTES ?? 1_000);
const PARTITIONS = 12;
const APP_DIR = path.resolve(import.meta.dirname, "..");
if (!Number.isSafeInteger(RECORDS) || RECORDS < 1_000) throw new Error("NEREUS_BENCH_RECORDS must be >= 1000");
if (!Number.isSafeInteger(RECORD_BYTES) || RECORD_BYTES < 10)
  throw new Error("NEREUS_BENCH_RECORD_BYTES must be >= 10");

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

/** Starts one broker of `cluster` and resolves once it logs that it serves. */
async function startBroker(dir: string, cluster: string, nodeId: number, kafkaPort: number): Promise<ChildProcess> {
  const services = loadServices();
  const config = {
    dataDir: path.join(dir, `data-${String(nodeId)}`),
    cluster,
    nodeId,
    kafka: { port: kafkaPort },
    pulsar: { enabled: false },
    admin: { enabled: false },
    membership: { enabled: true, leaseTtlMs: 6_000 },
    log: { level: "info" },
    storage: {
      metadata: { kind: "etcd", endpoints: [services.etcd.endpoint] },
      objects: {
        kind: "s3",
        endpoint: services.s3.endpoint,
        region: services.s3.region,
        bucket: services.s3.bucket,
        accessKeyId: services.s3.accessKeyId,
        secretAccessKey: services.s3.secretAccessKey,
        forcePathStyle: true,
        keyPrefix: `${cluster}/`,
      },
    },
  };
  const configFile = path.join(dir, `broker-${String(nodeId)}.json`);
  writeFileSync(configFile, JSON.stringify(config));
  const child = spawn(
    process.execPath,
    ["--conditions=@nereus/source", "--import", "tsx", "src/main.ts", "--config", configFile],
    { cwd: APP_DIR, stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      if (output.includes('"broker started"')) resolve();
    });
    child.once("exit", (code) => reject(new Error(`broker ${String(nodeId)} exited (${String(code)}) before serving`)));
  });
  child.stdout?.resume();
  return child;
}

/** Sends `input` (one record per line) with kcat; resolves with the elapsed milliseconds. */
function kcatProduce(bootstrap: string, topic: string, input: string): Promise<number> {
  const started = performance.now();
  const child = spawn("kcat", ["-b", bootstrap, "-P", "-t", topic, "-X", "acks=all", "-X", "linger.ms=5"], {
    stdio: ["pipe", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once("exit", (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`kcat failed (${String(code)}): ${stderr}`)),
    );
  });
}

/** Produces RECORDS records into a fresh topic of a fresh cluster of `brokers` brokers; resolves with MB/s. */
async function measure(brokers: number, input: string): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "nereus-cluster-bench-"));
  const cluster = `bench${randomBytes(4).toString("hex")}`;
  const children: ChildProcess[] = [];
  try {
    const ports = await Promise.all(Array.from({ length: brokers }, () => freePort()));
    children.push(...(await Promise.all(ports.map((port, index) => startBroker(dir, cluster, index + 1, port)))));
    const bootstrap = ports.map((port) => `127.0.0.1:${String(port)}`).join(",");
    const admin = new Kafka({ clientId: "bench", brokers: bootstrap.split(","), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      while ((await admin.describeCluster()).brokers.length < brokers)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const topic = "throughput";
      await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }] });
      const elapsedMs = await kcatProduce(bootstrap, topic, input);
      const offsets = await admin.fetchTopicOffsets(topic);
      const stored = offsets.reduce((sum, partition) => sum + Number(partition.high), 0);
      if (stored !== RECORDS)
        throw new Error(`${String(brokers)} broker(s) stored ${String(stored)} of ${String(RECORDS)} records`);
      return (RECORDS * RECORD_BYTES) / 1e6 / (elapsedMs / 1_000);
    } finally {
      await admin.disconnect();
    }
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map((child) => new Promise((resolve) => child.once("exit", resolve))));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const value = "x".repeat(RECORD_BYTES - 8);
  const lines = Array.from({ length: RECORDS }, (_, index) => `${String(index).padStart(8, "0")}${value}`);
  const input = `${lines.join("\n")}\n`;
  const one = await measure(1, input);
  const three = await measure(3, input);
  console.log(
    `cluster produce throughput (${String(RECORDS)} records of ${String(RECORD_BYTES)} bytes, acks=all, ` +
      `${String(PARTITIONS)} partitions, ${String(os.cpus().length)} cores): 1 broker ${one.toFixed(1)} MB/s, ` +
      `3 brokers ${three.toFixed(1)} MB/s, ratio ${(three / one).toFixed(2)}`,
  );
}

await main();
