// The `nereus` process: --help, --version and usage errors; clear one-line start-up errors with exit codes,
// /healthz and /metrics, and a graceful SIGTERM that finishes in-flight produce requests before it exits 0.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { hostname } from "node:os";
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import { APP_DIR, BrokerProcess, freePort, tempDir, testConfig } from "./support/broker-fixture.js";
import { readExposition } from "./support/prometheus-text.js";
import { runCommand } from "./support/run-command.js";

const manifestVersion = (JSON.parse(readFileSync(path.join(APP_DIR, "package.json"), "utf8")) as { version: string })
  .version;
const processes: BrokerProcess[] = [];
afterEach(async () => {
  for (const broker of processes.splice(0)) await broker.stop("SIGKILL");
});

async function failure(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string }> {
  const broker = BrokerProcess.spawn(args, env);
  processes.push(broker);
  const { code } = await broker.exited;
  return { code, stderr: broker.stderr.join("") };
}

describe("the nereus command line", () => {
  test("--help prints the usage and --version the package's version, exit 0; an unknown option exits 2", async () => {
    const help = BrokerProcess.spawn(["--help"]);
    processes.push(help);
    expect((await help.exited).code).toBe(0);
    const usage = help.stdout.join("\n");
    expect(usage).toMatch(/^Usage: nereus \[start\] \[options\]/);
    expect(usage).toContain("--kafka-port <n>");
    expect(usage).toContain("[NEREUS_KAFKA_PORT]");

    const version = BrokerProcess.spawn(["--version"]);
    processes.push(version);
    expect((await version.exited).code).toBe(0);
    expect(version.stdout).toEqual([`nereus ${manifestVersion}`]);

    const unknown = await failure(["--kafka-prot", "9092"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("nereus: unknown option --kafka-prot (see nereus --help)\n");
  });
});

describe("nereus start-up errors", () => {
  test("a bad configuration names the field and exits 2", async () => {
    const result = await failure(["--data-dir", tempDir("bad"), "--kafka-port", "99999"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^nereus: cannot start: bad config: kafka\.port \(from --kafka-port=99999\): Too big: expected number to be <=65535\n$/,
    );
  });

  test("a Kafka port in use is one line naming the address", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const result = await failure(["--data-dir", tempDir("busy"), "--kafka-port", String(port), "--admin-port", "0"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `nereus: cannot start: Kafka listener: 127.0.0.1:${String(port)} is already in use (is another broker or Kafka running? choose another --kafka-port)\n`,
      );
    } finally {
      blocker.close();
    }
  });

  test("an unusable data directory, a data directory in use and an unreachable etcd are one line each", async () => {
    const parent = tempDir("unusable");
    const file = path.join(parent, "not-a-directory");
    writeFileSync(file, "");
    const notDirectory = await failure([
      "--data-dir",
      path.join(file, "data"),
      "--kafka-port",
      "0",
      "--admin-port",
      "0",
    ]);
    expect(notDirectory.code).toBe(1);
    expect(notDirectory.stderr).toMatch(
      /^nereus: cannot start: data directory .*not-a-directory\/data is not usable \(ENOTDIR\)[^\n]*\n$/,
    );
    if (process.getuid?.() !== 0) {
      const readOnly = path.join(parent, "read-only");
      mkdirSync(readOnly);
      chmodSync(readOnly, 0o500);
      const denied = await failure(["--data-dir", readOnly, "--kafka-port", "0", "--admin-port", "0"]);
      expect(denied.stderr).toMatch(/is not usable \(EACCES\)/);
    }

    const dataDir = tempDir("shared");
    const owner = await BrokerProcess.start(
      testConfig("embedded", { dataDir }),
      path.join(tempDir("cfg"), "broker.json"),
    );
    processes.push(owner);
    const second = await failure(["--data-dir", dataDir, "--kafka-port", "0", "--admin-port", "0"]);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `nereus: cannot start: data directory ${dataDir} is in use by another broker (pid ${String(owner.pid)} on ${hostname()}); stop it or choose another --data-dir\n`,
    );

    const deadPort = await freePort();
    const etcd = await failure(
      [
        "--etcd-endpoints",
        `http://127.0.0.1:${String(deadPort)}`,
        "--data-dir",
        tempDir("etcd"),
        "--kafka-port",
        "0",
        "--admin-port",
        "0",
      ],
      {
        NEREUS_SERVICES_FILE: "",
      },
    );
    expect(etcd.code).toBe(1);
    expect(etcd.stderr).toMatch(
      new RegExp(`^nereus: cannot start: cannot use etcd at http://127\\.0\\.0\\.1:${String(deadPort)}: [^\\n]+\\n$`),
    );
  });
});

describe("a running nereus broker", () => {
  test("serves /healthz and /metrics, and SIGTERM answers in-flight produces before exiting 0", async () => {
    const dataDir = tempDir("graceful");
    const kafkaPort = await freePort();
    const adminPort = await freePort();
    const config = testConfig("embedded", {
      dataDir,
      kafkaPort,
      overrides: { admin: { port: adminPort }, pulsar: { enabled: false } },
    });
    const broker = await BrokerProcess.start(config, path.join(tempDir("cfg"), "broker.json"));
    processes.push(broker);
    await broker.ready();
    const health = await fetch(`http://127.0.0.1:${String(adminPort)}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", nodeId: 0 });

    const topic = `graceful-${randomBytes(4).toString("hex")}`;
    const kafka = new Kafka({
      clientId: "graceful",
      brokers: [`127.0.0.1:${String(kafkaPort)}`],
      logLevel: logLevel.NOTHING,
      retry: { retries: 0 },
    });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ value: "warm-up" }] });
    const warmUp = await runCommand(
      "kcat",
      ["-b", `127.0.0.1:${String(kafkaPort)}`, "-C", "-t", topic, "-o", "beginning", "-e", "-q"],
      { timeoutMs: 30_000 },
    );
    expect(warmUp.stdout.toString("utf8")).toBe("warm-up\n");
    const metrics = await (await fetch(`http://127.0.0.1:${String(adminPort)}/metrics`)).text();
    for (const family of [
      "nereus_append_duration_seconds_count",
      'nereus_kafka_request_duration_seconds_count{api="Produce"}',
      'nereus_kafka_requests_total{api="Produce"}',
      "nereus_kafka_produced_bytes_total",
      "nereus_listener_connections_active",
      "nereus_wal_objects_total",
      'nereus_materialization_deferrals_total{kind="level1"}',
      "nereus_materialization_tasks_published_total",
      "nereus_materialization_pending_bytes",
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "# TYPE nereus_event_loop_busy_seconds_total counter",
      'nereus_segment_write_jobs_total{kind="following"}',
      "nereus_segments_removed_total",
      "nereus_segment_objects_compacted_total",
      "# TYPE nereus_gc_pause_seconds histogram",
      "nereus_materialization_foreground_wait_seconds_total",
      "nereus_kafka_groups",
    ]) {
      expect(metrics).toContain(family);
    }
    expect(metrics).not.toMatch(/^nereus_process_/m);
    // Per topic: the warm-up record produced, and fetched by kcat.
    expect(metrics).toContain(`nereus_kafka_topic_produced_records_total{topic="${topic}"} 1`);
    expect(metrics).toMatch(
      new RegExp(`^nereus_kafka_topic_produced_bytes_total\\{topic="${topic}"\\} [1-9]\\d*$`, "m"),
    );
    expect(metrics).toContain(`nereus_kafka_topic_fetched_records_total{topic="${topic}"} 1`);
    expect(metrics).toMatch(
      new RegExp(`^nereus_kafka_topic_fetched_bytes_total\\{topic="${topic}"\\} [1-9]\\d*$`, "m"),
    );
    // The exposition is valid as a scraper and promtool read it (promtool runs too where it is installed: Debian's
    // prometheus package).
    expect(readExposition(metrics).problems).toEqual([]);
    const promtool = spawnSync("promtool", ["check", "metrics"], { input: metrics, encoding: "utf8" });
    if (promtool.error === undefined) expect(promtool.status, promtool.stdout + promtool.stderr).toBe(0);
    // The acknowledged produce went through a segment write, its fdatasync, a SQLite round and the -wal datasync.
    for (const step of ["segment_write", "segment_sync", "sqlite_round", "sqlite_wal_sync"]) {
      const count = new RegExp(`^nereus_storage_io_seconds_count\\{step="${step}"\\} (\\d+)$`, "m").exec(metrics);
      expect(Number(count?.[1] ?? 0), step).toBeGreaterThan(0);
    }
    // That produce was a record in a segment write job. The job counts when it is sent; its records count once the
    // worker's answer reached the event loop, which may come after the head transaction's (the produce's ack): scrape
    // again until it did (bounded: 5 s).
    const sample = (text: string, family: string): number =>
      Number(new RegExp(`^${family.replace(/[{}]/g, "\\$&")} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
    expect(sample(metrics, 'nereus_segment_write_jobs_total{kind="all"}')).toBeGreaterThan(0);
    let segmentMetrics = metrics;
    for (let attempt = 0; attempt < 50 && sample(segmentMetrics, "nereus_segment_records_total") === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      segmentMetrics = await (await fetch(`http://127.0.0.1:${String(adminPort)}/metrics`)).text();
    }
    expect(sample(segmentMetrics, "nereus_segment_records_total")).toBeGreaterThan(0);
    // Reads are exported too (a series from the start, counted once a Fetch misses the broker's caches).
    expect(metrics).toMatch(/^nereus_storage_io_seconds_count\{step="object_read"\} \d+$/m);
    expect(metrics).toMatch(/^nereus_storage_io_seconds_count\{step="object_read_hot"\} \d+$/m);
    // And where their bytes landed: reused buffers or buffers of their own, per pool.
    for (const pool of ["event_loop", "workers"]) {
      for (const kind of ["lent", "own"])
        expect(metrics).toMatch(
          new RegExp(`^nereus_storage_read_buffers_total\\{pool="${pool}",kind="${kind}"\\} \\d+$`, "m"),
        );
    }
    expect(metrics).toMatch(/^nereus_storage_read_buffer_bytes\{pool="event_loop"\} \d+$/m);

    // Many produces in flight, then SIGTERM: each one that was read gets its answer; the process exits 0.
    const sends = Array.from({ length: 50 }, (_, index) =>
      producer.send({ topic, acks: -1, messages: [{ value: `in-flight-${String(index)}` }] }).then(
        () => `in-flight-${String(index)}`,
        () => undefined,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    const exit = broker.stop("SIGTERM");
    const acknowledged = (await Promise.all(sends)).filter((value) => value !== undefined);
    expect((await exit).code).toBe(0);
    expect(acknowledged.length).toBeGreaterThan(0);
    await producer.disconnect().catch(() => undefined);
    expect(broker.stdout.some((line) => line.includes('"broker stopped"'))).toBe(true);

    const restarted = await BrokerProcess.start(config, path.join(tempDir("cfg"), "broker.json"));
    processes.push(restarted);
    const consumed = await runCommand(
      "kcat",
      ["-b", `127.0.0.1:${String(kafkaPort)}`, "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%s\n"],
      { timeoutMs: 60_000 },
    );
    const values = consumed.stdout
      .toString("utf8")
      .split("\n")
      .filter((line) => line.length > 0);
    expect(values[0]).toBe("warm-up");
    for (const value of acknowledged) expect(values).toContain(value);
  });
});
