// Apache Pulsar's Java admin client 4.2.4 (PulsarAdmin, Maven Central, the harness's "pulsar-client" artifact set)
// against the broker's /admin/v2 API, with the Java PulsarClient producing and consuming, on the embedded default
// and on etcd + s3proxy. The driver (clients/JavaPulsarAdmin.java) is compiled with javac per run and prints one
// line per fact: tenants and namespaces, namespace and topic policies, a partitioned topic created and listed, the
// backlog after producing, resets by time and to a message id (the next message a consumer receives), skip, skip
// all, Pulsar's refusals as the client's exceptions, a non-partitioned topic's peeked messages, stats and internal
// stats, and every deletion.
import { randomBytes } from "node:crypto";
import type { JavaProgram } from "@nereus/test-services";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, type StorageKind, startInProcess, testConfig } from "./support/broker-fixture.js";
import { compileJavaClient, runJavaClient } from "./support/java-client.js";

const COUNT = 30;
let program: JavaProgram | undefined;
const running: InProcessBroker[] = [];

beforeAll(async () => {
  program = await compileJavaClient("pulsar-client", "JavaPulsarAdmin");
}, 600_000);

afterAll(() => program?.dispose());
afterEach(async () => {
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

/** Runs the driver's scenario; its stdout lines by first word (a word repeated keeps every line). */
async function scenario(options: Readonly<Record<string, string>>): Promise<Map<string, string[][]>> {
  if (program === undefined) throw new Error("the driver did not compile");
  const args = Object.entries(options).map(([key, value]) => `${key}=${value}`);
  const lines = await runJavaClient(program, ["scenario", ...args], 170_000);
  const facts = new Map<string, string[][]>();
  for (const line of lines) {
    const [key = "", ...values] = line.split(" ").filter((word) => word.length > 0);
    facts.set(key, [...(facts.get(key) ?? []), values]);
  }
  return facts;
}

function one(facts: Map<string, string[][]>, key: string): string[] {
  const lines = facts.get(key);
  expect(lines, key).toHaveLength(1);
  return lines![0]!;
}

describe.each<StorageKind>(["embedded", "cluster"])("Java PulsarAdmin on the %s storage", (kind) => {
  test("partitioned topic lifecycle, stats with the backlog, cursor resets, skips and deletions", async () => {
    const cluster = `padmin${randomBytes(4).toString("hex")}`;
    const broker = await startInProcess(
      testConfig(kind, { cluster, overrides: { pulsar: { enabled: true, port: 0 } } }),
    );
    running.push(broker);
    const name = `orders-${randomBytes(3).toString("hex")}`;
    const topic = `persistent://public/default/${name}`;
    const tenant = `acme-${randomBytes(3).toString("hex")}`;
    const facts = await scenario({
      admin: `http://127.0.0.1:${String(broker.broker.adminPort)}`,
      service: `pulsar://127.0.0.1:${String(broker.broker.pulsarPort)}`,
      topic,
      tenant,
      count: String(COUNT),
    });

    expect(facts.get("UNEXPECTED_SUCCESS")).toBeUndefined();
    expect(one(facts, "CLUSTERS")).toEqual([cluster]);
    expect(one(facts, "TENANTS")[0]!.split(",")).toEqual([tenant, "public"]);
    expect(one(facts, "NAMESPACES")).toEqual([`${tenant}/apps`]);
    expect(one(facts, "PUBLIC_NAMESPACES")).toEqual(["public/default"]);
    expect(one(facts, "NS_DEDUP_UNSET")).toEqual(["null"]);
    expect(one(facts, "NS_DEDUP")).toEqual(["true"]);
    expect(one(facts, "NS_AUTO")).toEqual(["false", "non-partitioned"]);
    expect(one(facts, "TOPIC_DEDUP")).toEqual(["false", "false"]);
    expect(one(facts, "TOPIC_DEDUP_APPLIED_AFTER_REMOVE")).toEqual(["true"]);
    expect(one(facts, "NS_DEDUP_REMOVED")).toEqual(["null"]);
    expect(one(facts, "PARTITIONS")).toEqual(["3"]);
    expect(one(facts, "PARTITIONED_LIST")).toEqual([topic]);
    expect(one(facts, "LIST")[0]!.split(",")).toEqual([0, 1, 2].map((index) => `${topic}-partition-${String(index)}`));
    expect(one(facts, "SUBSCRIPTIONS")).toEqual(["audit"]);

    expect(one(facts, "BACKLOG_AFTER_PRODUCE")).toEqual([String(COUNT)]);
    expect(Number(one(facts, "STORAGE_SIZE")[0])).toBeGreaterThan(COUNT * 4);
    expect(facts.get("PARTITION_BACKLOG")).toEqual([0, 1, 2].map((index) => [String(index), String(COUNT / 3)]));
    expect(one(facts, "BACKLOG_AFTER_RESET_TIME")).toEqual([String(COUNT / 2)]);

    const [targetPartition, , fromTarget] = one(facts, "TARGET");
    expect(targetPartition).toMatch(/^[012]$/);
    expect(one(facts, "PARTITION_BACKLOG_AFTER_RESET_ID")).toEqual([fromTarget]);
    expect(one(facts, "FIRST_AFTER_RESET_ID")).toEqual(["m-1"]);
    expect(one(facts, "CONSUMERS_WHILE_CONNECTED")).toEqual(["1"]);
    expect(one(facts, "PARTITION_BACKLOG_AFTER_SKIP")).toEqual([String(Number(fromTarget) - 2)]);
    expect(one(facts, "BACKLOG_AFTER_SKIP_ALL")).toEqual(["0"]);

    expect(facts.get("ERROR")).toEqual([
      ["subscribe-without-auto-creation", "PreconditionFailedException", "412"],
      ["create-again", "ConflictException", "409"],
      ["delete-subscription-in-use", "PreconditionFailedException", "412"],
      ["skip-partitioned", "NotAllowedException", "405"],
      ["stats-missing", "NotFoundException", "404"],
    ]);

    const peeked = one(facts, "PEEK")[0]!.split(",");
    expect(peeked.map((text) => text.split("@")[0])).toEqual(["m-0", "m-1", "m-2"]);
    for (const text of peeked) expect(Number(text.split("@")[1])).toBeGreaterThan(Date.now() - 600_000);
    expect(one(facts, "SINGLE_BACKLOG")).toEqual(["5"]);
    const [entries, lastConfirmed, markDelete] = one(facts, "SINGLE_INTERNAL");
    expect(entries).toBe("5");
    expect(lastConfirmed).toMatch(/^\d+:4$/);
    expect(markDelete).toBe(`${lastConfirmed!.split(":")[0]!}:-1`);

    expect(one(facts, "SUBSCRIPTIONS_AFTER_DELETE")).toEqual([]);
    expect(one(facts, "PARTITIONED_LIST_AFTER_DELETE")).toEqual([]);
    expect(one(facts, "LIST_AFTER_DELETE")).toEqual([]);
    expect(one(facts, "TENANTS_AFTER_DELETE")).toEqual(["public"]);
    expect(facts.has("DONE")).toBe(true);
  });
});
