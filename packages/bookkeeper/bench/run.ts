// BookKeeper add benchmark: this client against BookKeeper's own Java client (4.17, compiled here with javac)
// on the same three real bookies in the same run. Ledger E=3, Qw=2, Qa=2, CRC32C; entries of 1 KiB and 64 KiB.
// Per size: add latency with one add in flight (p50/p99/mean after a warm-up), then throughput with a window of
// adds in flight. An unmeasured warm-up runs first so the bookies' JIT favours neither client. Prints both
// clients and the ratio ours/Java; then the WAL append benchmark (wal-append.ts). Uses the shared services when
// NEREUS_SERVICES_FILE is set, otherwise starts ZooKeeper and bookies (throughput JVM profile) and stops them.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import {
  SERVICES_FILE_ENV,
  artifactSetDir,
  loadServices,
  startServices,
  type RunningServices,
} from "@nereus/test-services";
import { createBookKeeperClient } from "../src/client/bookkeeper-client.js";
import { runWalAppendBench } from "./wal-append.js";

const run = promisify(execFile);

interface Scenario {
  readonly bytes: number;
  readonly warmup: number;
  readonly latencyCount: number;
  readonly throughputCount: number;
  readonly window: number;
}

const SCENARIOS: readonly Scenario[] = [
  { bytes: 1024, warmup: 500, latencyCount: 2000, throughputCount: 20_000, window: 64 },
  { bytes: 64 * 1024, warmup: 200, latencyCount: 500, throughputCount: 2_000, window: 16 },
];

interface Result {
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly throughput: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

async function benchOurs(connectString: string, ledgersRoot: string, scenario: Scenario): Promise<Result> {
  const client = createBookKeeperClient({ zooKeeperConnectString: connectString, ledgersRoot });
  try {
    const payload = new Uint8Array(randomBytes(scenario.bytes));
    const handle = await client.createLedger({
      ensembleSize: 3,
      writeQuorumSize: 2,
      ackQuorumSize: 2,
      digestType: "CRC32C",
    });
    for (let i = 0; i < scenario.warmup; i += 1) await handle.addEntry(payload);
    const samples: number[] = [];
    for (let i = 0; i < scenario.latencyCount; i += 1) {
      const started = performance.now();
      await handle.addEntry(payload);
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    const started = performance.now();
    const inFlight = new Set<Promise<number>>();
    for (let i = 0; i < scenario.throughputCount; i += 1) {
      const add = handle.addEntry(payload);
      inFlight.add(add);
      void add.finally(() => inFlight.delete(add));
      if (inFlight.size >= scenario.window) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    const seconds = (performance.now() - started) / 1000;
    await handle.close();
    await client.deleteLedger(handle.ledgerId);
    return {
      p50: percentile(samples, 0.5),
      p99: percentile(samples, 0.99),
      mean: samples.reduce((sum, sample) => sum + sample, 0) / samples.length,
      throughput: scenario.throughputCount / seconds,
    };
  } finally {
    await client.close();
  }
}

async function benchJava(
  classes: string,
  libs: string,
  metadataServiceUri: string,
  scenario: Scenario,
): Promise<Result> {
  const args = [
    String(scenario.bytes),
    String(scenario.warmup),
    String(scenario.latencyCount),
    String(scenario.throughputCount),
    String(scenario.window),
  ];
  const { stdout } = await run(
    "java",
    [
      "-Xms256m",
      "-Xmx512m",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED",
      "-Dio.netty.tryReflectionSetAccessible=true",
      `-Djava.io.tmpdir=${classes}`,
      "-cp",
      `${classes}${path.delimiter}${libs}`,
      "BookKeeperBench",
      metadataServiceUri,
      ...args,
    ],
    { maxBuffer: 16 * 1024 * 1024, timeout: 600_000 },
  );
  const match = /result bytes=\d+ p50=([\d.]+) p99=([\d.]+) mean=([\d.]+) throughput=([\d.]+)/.exec(stdout);
  if (match === null) throw new Error(`Java benchmark printed no result:\n${stdout}`);
  return { p50: Number(match[1]), p99: Number(match[2]), mean: Number(match[3]), throughput: Number(match[4]) };
}

function printTable(rows: ReadonlyArray<readonly string[]>): void {
  const header = [
    "client (E=3 Qw=2 Qa=2, CRC32C)",
    "entry",
    "p50 ms",
    "p99 ms",
    "mean ms",
    "adds/s (window)",
    "MiB/s",
    "p50 ours/Java",
    "adds/s ours/Java",
  ];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join(" | ");
  console.log(line(header));
  console.log(widths.map((width) => "-".repeat(width)).join("-|-"));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  let owned: RunningServices | undefined;
  const shared = process.env[SERVICES_FILE_ENV];
  const services =
    shared !== undefined && shared !== ""
      ? loadServices()
      : (owned = await startServices({ bookkeeper: true, jvm: "throughput" }));
  const classes = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-bk-bench-"));
  try {
    const libs = path.join(artifactSetDir("bookkeeper"), "*");
    await run("javac", ["-cp", libs, "-d", classes, path.join(import.meta.dirname, "java", "BookKeeperBench.java")], {
      timeout: 180_000,
    });
    // Warm the bookies' JIT first, so neither client pays for it inside its measurement.
    await benchOurs(services.zookeeper.connectString, services.bookkeeper.zkLedgersRoot, {
      bytes: 4096,
      warmup: 2000,
      latencyCount: 10,
      throughputCount: 10_000,
      window: 64,
    });
    const rows: string[][] = [];
    for (const scenario of SCENARIOS) {
      const ours = await benchOurs(services.zookeeper.connectString, services.bookkeeper.zkLedgersRoot, scenario);
      const java = await benchJava(classes, libs, services.bookkeeper.metadataServiceUri, scenario);
      const size = scenario.bytes >= 1024 ? `${String(scenario.bytes / 1024)} KiB` : `${String(scenario.bytes)} B`;
      const row = (name: string, result: Result, ratios: boolean) => [
        name,
        size,
        result.p50.toFixed(3),
        result.p99.toFixed(3),
        result.mean.toFixed(3),
        `${result.throughput.toFixed(0)} (${String(scenario.window)})`,
        ((result.throughput * scenario.bytes) / (1024 * 1024)).toFixed(1),
        ratios ? `${(ours.p50 / java.p50).toFixed(2)}x` : "",
        ratios ? `${(ours.throughput / java.throughput).toFixed(2)}x` : "",
      ];
      rows.push(row("@nereus/bookkeeper", ours, true), row("BookKeeper Java client 4.17", java, false));
    }
    console.log(
      `bookies ${services.bookkeeper.bookies.map((bookie) => bookie.id).join(" ")}${owned === undefined ? " (shared services)" : " (started for this run)"}; ${String(os.cpus().length)} CPU(s)`,
    );
    printTable(rows);
    await runWalAppendBench(services);
  } finally {
    fs.rmSync(classes, { recursive: true, force: true });
    await owned?.stop();
  }
}

await main();
