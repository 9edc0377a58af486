// kcat (Debian, librdkafka 2.0.2) produces 10,000 keyed messages with headers (acks=all) and consumes them back
// byte-identical, on the embedded default and on etcd + s3proxy; then a restarted broker serves the same bytes.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { type InProcessBroker, type StorageKind, startInProcess, testConfig } from "./support/broker-fixture.js";
import { runCommand } from "./support/run-command.js";

const COUNT = 10_000;
const running: InProcessBroker[] = [];

afterEach(async () => {
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

function messages(run: string): { input: string; expected: string } {
  const input: string[] = [];
  const expected: string[] = [];
  for (let index = 0; index < COUNT; index += 1) {
    const key = `key-${String(index)}-${randomBytes(3).toString("hex")}`;
    const value = randomBytes(1 + (index % 300)).toString("base64url");
    input.push(`${key}\t${value}`);
    expected.push(`${key}\t${value}\tsource=kcat,run=${run}`);
  }
  return { input: `${input.join("\n")}\n`, expected: `${expected.join("\n")}\n` };
}

async function produce(
  bootstrap: string,
  topic: string,
  run: string,
  input: string,
  extra: readonly string[] = [],
): Promise<void> {
  const result = await runCommand(
    "kcat",
    [
      "-b",
      bootstrap,
      "-P",
      "-t",
      topic,
      "-p",
      "0",
      "-K",
      "\t",
      "-H",
      "source=kcat",
      "-H",
      `run=${run}`,
      "-X",
      "acks=all",
      "-X",
      "linger.ms=5",
      ...extra,
    ],
    { input, timeoutMs: 120_000 },
  );
  expect(result.stderr).not.toMatch(/fail|error/i);
  expect(result.code).toBe(0);
}

async function consume(bootstrap: string, topic: string): Promise<string> {
  const result = await runCommand(
    "kcat",
    ["-b", bootstrap, "-C", "-t", topic, "-o", "beginning", "-e", "-c", String(COUNT), "-q", "-f", "%k\t%s\t%h\n"],
    { timeoutMs: 120_000 },
  );
  expect(result.code).toBe(0);
  return result.stdout.toString("utf8");
}

describe.each<[StorageKind, readonly string[]]>([
  ["embedded", []],
  ["cluster", ["-z", "gzip"]],
])("kcat on the %s storage", (kind, producerFlags) => {
  test(`produces ${String(COUNT)} keyed messages with headers and consumes them back byte-identical, before and after a restart`, async () => {
    const config = testConfig(kind);
    const first = await startInProcess(config);
    running.push(first);
    const topic = `kcat-${randomBytes(4).toString("hex")}`;
    const run = randomBytes(4).toString("hex");
    const { input, expected } = messages(run);
    await produce(first.bootstrap, topic, run, input, producerFlags);
    const consumed = await consume(first.bootstrap, topic);
    expect(consumed.length).toBe(expected.length);
    expect(consumed === expected).toBe(true);

    await first.broker.close("restart");
    running.splice(running.indexOf(first), 1);
    const second = await startInProcess(config);
    running.push(second);
    expect((await consume(second.bootstrap, topic)) === expected).toBe(true);
  });
});
