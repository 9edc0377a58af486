// A full disk under the embedded default (broker process, data directory on a 16 MiB tmpfs, kafkajs client): while
// the volume is full, produce fails with a retriable error and /healthz answers 200 "degraded" with the reason; once
// space is freed, produce succeeds again without a restart and /healthz is "ok". Every acknowledged record reads back
// exactly once. Then the broker is stopped, the volume filled again, and the broker starts on the full volume and
// serves every acknowledged record. Needs root (mount): it fails, never skips, without it (CI runs as root).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BrokerProcess, freePort, tempDir, testConfig } from "./support/broker-fixture.js";

const VOLUME_BYTES = 16 * 1024 * 1024;
let volumeDir: string | undefined;
let mounted = false;
const brokers: BrokerProcess[] = [];

beforeAll(() => {
  if (process.getuid?.() !== 0)
    throw new Error("disk-full.integration.test.ts mounts a tmpfs and must run as root (CI does); run it as root");
  volumeDir = mkdtempSync(path.join(os.tmpdir(), "nereus-disk-full-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${String(VOLUME_BYTES)}`, "tmpfs", volumeDir]);
  mounted = true;
});

afterAll(async () => {
  for (const broker of brokers.splice(0)) await broker.stop("SIGKILL");
  if (volumeDir === undefined) return;
  if (mounted) {
    try {
      execFileSync("umount", [volumeDir]);
    } catch {
      // Still busy (a client process not yet gone): detach it now, the kernel frees it once the last user is gone.
      execFileSync("umount", ["-l", volumeDir]);
    }
  }
  rmSync(volumeDir, { recursive: true, force: true });
});

/** Fills the volume with `filler` until a write fails for lack of space. */
function fill(filler: string): void {
  const chunk = Buffer.alloc(1024 * 1024);
  try {
    for (;;) writeFileSync(filler, chunk, { flag: "a" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  }
  // The last partial megabyte: fill what is left in smaller writes.
  for (const size of [64 * 1024, 4096, 512]) {
    try {
      for (;;) writeFileSync(filler, Buffer.alloc(size), { flag: "a" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    }
  }
}

interface Health {
  readonly status: string;
  readonly storage?: { readonly writable: boolean; readonly reason?: string };
}

async function health(port: number): Promise<{ readonly code: number; readonly body: Health }> {
  const response = await fetch(`http://127.0.0.1:${String(port)}/healthz`, { signal: AbortSignal.timeout(5_000) });
  return { code: response.status, body: (await response.json()) as Health };
}

/** Polls /healthz (there is no event to wait for over HTTP) until `accept` holds, for at most `timeoutMs`. */
async function healthUntil(
  port: number,
  accept: (body: Health) => boolean,
  timeoutMs = 30_000,
): Promise<{ readonly code: number; readonly body: Health }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await health(port);
    if (accept(answer.body) || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every record value of `topic` partition 0 up to its high watermark (kafkajs consumer, fresh group). */
async function readAll(kafka: Kafka, topic: string): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  const [offsets] = await admin.fetchTopicOffsets(topic);
  await admin.disconnect();
  const high = Number(offsets?.high ?? 0);
  if (high === 0) return [];
  const values: string[] = [];
  const consumer = kafka.consumer({ groupId: `disk-full-${randomBytes(4).toString("hex")}`, retry: { retries: 10 } });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`read ${String(values.length)} records of ${topic}, expected offsets up to ${String(high)}`)),
      60_000,
    );
    void consumer.run({
      eachMessage: async ({ message }) => {
        values.push(message.value?.toString("utf8") ?? "");
        if (Number(message.offset) + 1 >= high) {
          clearTimeout(timer);
          resolve();
        }
      },
    });
  });
  await consumer.disconnect();
  return values;
}

describe("a full disk under the embedded default", () => {
  test(
    "writes fail retriably and /healthz is degraded while full, resume without a restart, and a restart on the full volume serves every acknowledged record",
    { timeout: 300_000 },
    async () => {
      const volume = volumeDir as string;
      const port = await freePort();
      const adminPort = await freePort();
      const config = testConfig("embedded", {
        dataDir: path.join(volume, "data"),
        kafkaPort: port,
        overrides: { admin: { port: adminPort }, pulsar: { enabled: false } },
      });
      const configFile = path.join(tempDir("disk-full-config"), "broker.json");
      let broker = await BrokerProcess.start(config, configFile);
      brokers.push(broker);
      const kafka = new Kafka({
        clientId: "disk-full",
        brokers: [`127.0.0.1:${String(port)}`],
        logLevel: logLevel.NOTHING,
        retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 1_000 },
      });
      const topic = `full-${randomBytes(4).toString("hex")}`;
      const acknowledged: string[] = [];
      const producer = kafka.producer({
        allowAutoTopicCreation: true,
        retry: { retries: 60, initialRetryTime: 100, maxRetryTime: 1_000 },
      });
      const once = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
      await producer.connect();
      await once.connect();
      const send = async (value: string): Promise<void> => {
        await producer.send({ topic, acks: -1, messages: [{ value }] });
        acknowledged.push(value);
      };
      try {
        for (let index = 0; index < 20; index += 1) await send(`before-${String(index)}`);
        expect((await health(adminPort)).body).toMatchObject({ status: "ok", storage: { writable: true } });

        const filler = path.join(volume, "filler");
        fill(filler);
        // Full: produce fails, retriably (no retries: each attempt's own answer), and keeps failing while full.
        const failures: unknown[] = [];
        for (let attempt = 0; attempt < 5; attempt += 1) {
          const value = `while-full-${String(attempt)}-${randomBytes(512).toString("hex")}`;
          try {
            await once.send({ topic, acks: -1, timeout: 5_000, messages: [{ value }] });
            acknowledged.push(value);
          } catch (error) {
            failures.push(error);
          }
        }
        expect(failures.length).toBeGreaterThan(0);
        for (const failure of failures) {
          const cause = (failure as { cause?: { retriable?: boolean; type?: string } }).cause;
          expect(cause?.retriable, `not retriable: ${String(failure)} (${String(cause?.type)})`).toBe(true);
        }
        const degraded = await healthUntil(adminPort, (body) => body.status === "degraded");
        expect(degraded.code).toBe(200);
        expect(degraded.body).toMatchObject({ status: "degraded", storage: { writable: false } });
        expect(degraded.body.storage?.reason).toMatch(/full|ENOSPC|space/i);
        expect(broker.stdout.some((line) => line.includes('"storage cannot write"'))).toBe(true);

        // Room again: produce succeeds without a restart, and the store says so.
        rmSync(filler);
        for (let index = 0; index < 20; index += 1) await send(`after-${String(index)}`);
        const recovered = await healthUntil(adminPort, (body) => body.status === "ok");
        expect(recovered).toMatchObject({ code: 200, body: { status: "ok", storage: { writable: true } } });
        expect(broker.stdout.some((line) => line.includes('"storage writable again"'))).toBe(true);

        const read = await readAll(kafka, topic);
        const counts = new Map<string, number>();
        for (const value of read) counts.set(value, (counts.get(value) ?? 0) + 1);
        expect(acknowledged.filter((value) => counts.get(value) !== 1)).toEqual([]);
        expect([...counts.values()].every((count) => count === 1)).toBe(true);
      } finally {
        await once.disconnect();
        await producer.disconnect();
      }

      // Stop, fill the volume, start again on the full volume: it starts and serves every acknowledged record.
      expect((await broker.stop("SIGTERM")).code).toBe(0);
      fill(path.join(volume, "filler-2"));
      broker = await BrokerProcess.start(config, configFile);
      brokers.push(broker);
      const afterRestart = await readAll(kafka, topic);
      const acknowledgedSet = new Set(acknowledged);
      expect(afterRestart.filter((value) => acknowledgedSet.has(value))).toEqual(acknowledged);
      expect(new Set(afterRestart).size).toBe(afterRestart.length);
      expect((await broker.stop("SIGTERM")).code).toBe(0);
    },
  );
});
