// `nereus admin` as a user runs it (the `nereus` entry as a child process) against a real broker after kcat wrote
// a known number of records per partition and a kafkajs group committed: the tables show the topic's offsets and
// the group's lag per partition, --json prints the API's own JSON, and failures are one line with exit code 1
// (unreachable broker, unknown name) or 2 (bad usage).
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { GroupList, TopicDetail } from "../src/admin/admin-views.js";
import { MORE_RECORDS, TOTAL_LAG, type Scenario, kcatProducer, seedTopicAndGroup } from "./admin-scenario.js";
import { APP_DIR, type InProcessBroker, freePort, startInProcess, testConfig } from "./support/broker-fixture.js";
import { type CommandResult, runCommand } from "./support/run-command.js";

let broker: InProcessBroker;
let scenario: Scenario;
let adminUrl: string;

beforeAll(async () => {
  broker = await startInProcess(testConfig("embedded"));
  adminUrl = `http://127.0.0.1:${String(broker.broker.adminPort)}`;
  const kafka = new Kafka({ clientId: "admin-cli-test", brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  scenario = await seedTopicAndGroup(kafka, kcatProducer(broker.bootstrap), "cli");
});

afterAll(async () => {
  await broker?.broker.close("test finished");
});

/** `nereus admin …args` from the sources, as the `nereus` bin runs it. */
async function nereusAdmin(...args: string[]): Promise<CommandResult & { out: string }> {
  const result = await runCommand(
    process.execPath,
    ["--conditions=@nereus/source", "--import", "tsx", path.join(APP_DIR, "src/main.ts"), "admin", ...args],
    { timeoutMs: 60_000 },
  );
  return { ...result, out: result.stdout.toString("utf8") };
}

/** The cells of the table row whose first cell is `first` (cells are separated by two or more spaces). */
function row(table: string, first: string): string[] | undefined {
  return table
    .split("\n")
    .map((line) => line.trim().split(/\s{2,}/))
    .find((cells) => cells[0] === first);
}

describe("nereus admin against a running broker", () => {
  test("topics: the list and one topic's partitions with their offsets and storage", async () => {
    const listed = await nereusAdmin("topics", "--admin-url", adminUrl);
    expect(listed.stderr).toBe("");
    expect(listed.code).toBe(0);
    expect(listed.out.split("\n")[0]).toMatch(/^TOPIC\s+PARTITIONS\s+PROFILE\s+RECORDS\s+BYTES$/);
    const total = scenario.endOffsets.reduce((sum, end) => sum + end, 0);
    expect(row(listed.out, scenario.topic)?.slice(0, 4)).toEqual([
      scenario.topic,
      "3",
      "OBJECT_WAL_SYNC_OBJECT",
      String(total),
    ]);

    const described = await nereusAdmin("topics", "--describe", scenario.topic, "--admin-url", adminUrl);
    expect(described.code).toBe(0);
    expect(described.out).toContain(`topic ${scenario.topic} (id `);
    const [partitions, storage] = described.out.split("\n\n").slice(1);
    for (const [partition, end] of scenario.endOffsets.entries()) {
      expect(row(partitions!, String(partition))?.slice(0, 5)).toEqual([
        String(partition),
        "ACTIVE",
        "0",
        String(end),
        String(end),
      ]);
      const walRanges = Number(row(storage!, String(partition))?.[1]);
      expect(walRanges).toBeGreaterThanOrEqual(1);
    }
  });

  test("groups: the list with total lag and one group's committed offset, end and lag per partition", async () => {
    const listed = await nereusAdmin("groups", "--admin-url", adminUrl);
    expect(listed.code).toBe(0);
    const lag = TOTAL_LAG;
    expect(row(listed.out, scenario.group)).toEqual([scenario.group, "Empty", "consumer", "0", "3", String(lag)]);

    const described = await nereusAdmin("groups", "-d", scenario.group, "--admin-url", adminUrl);
    expect(described.code).toBe(0);
    expect(described.out.split("\n")[0]).toBe(`group ${scenario.group}: Empty, 0 member(s), lag ${String(lag)}`);
    const offsets = described.out.split("\n\n")[1]!;
    const rows = offsets
      .split("\n")
      .slice(2)
      .map((line) =>
        line
          .trim()
          .split(/\s{2,}/)
          .slice(0, 5),
      );
    expect(rows).toEqual(
      scenario.endOffsets.map((end, partition) => [
        scenario.topic,
        String(partition),
        String(scenario.committedOffsets[partition]),
        String(end),
        String(MORE_RECORDS[partition]),
      ]),
    );
    expect(described.out).toContain("no members");
  });

  test("brokers: listeners and storage; --json prints the API's JSON", async () => {
    const brokers = await nereusAdmin("brokers", "--admin-url", adminUrl);
    expect(brokers.code).toBe(0);
    expect(brokers.out).toMatch(/^broker 0 of cluster \S+: version \d+\.\d+\.\d+/);
    expect(row(brokers.out, "kafka")).toEqual(["kafka", broker.bootstrap, broker.bootstrap]);
    expect(row(brokers.out, "admin")?.[1]).toBe(`127.0.0.1:${String(broker.broker.adminPort)}`);

    const json = await nereusAdmin("topics", "--describe", scenario.topic, "--json", "--admin-url", adminUrl);
    expect(json.code).toBe(0);
    const api = (await (
      await fetch(`${adminUrl}/admin/v1/topics/${encodeURIComponent(scenario.topic)}`)
    ).json()) as TopicDetail;
    expect((JSON.parse(json.out) as TopicDetail).partitions.map((partition) => partition.endOffset)).toEqual(
      api.partitions.map((partition) => partition.endOffset),
    );
    const groups = JSON.parse((await nereusAdmin("groups", "--json", "--admin-url", adminUrl)).out) as GroupList;
    expect(groups.groups.find((group) => group.groupId === scenario.group)?.lag).toBe(TOTAL_LAG);
  });

  test("an unknown name, an unreachable broker: one line, exit 1", async () => {
    const unknown = await nereusAdmin("topics", "--describe", "no-such-topic", "--admin-url", adminUrl);
    expect([unknown.code, unknown.out, unknown.stderr]).toEqual([1, "", 'nereus admin: no topic "no-such-topic"\n']);
    const closedPort = await freePort();
    const unreachable = await nereusAdmin("groups", "--admin-url", `http://127.0.0.1:${String(closedPort)}`);
    expect(unreachable.code).toBe(1);
    expect(unreachable.out).toBe("");
    expect(unreachable.stderr).toBe(
      `nereus admin: cannot reach the broker's admin API at http://127.0.0.1:${String(closedPort)} (ECONNREFUSED)\n`,
    );
  });

  test("bad usage: one line naming the problem, exit 2; --help for each command, exit 0", async () => {
    const cases: [string[], RegExp][] = [
      [["topicz"], /^nereus admin: unknown admin command "topicz" \(commands: topics, groups, brokers\)/],
      [["topics", "--bogus"], /^nereus admin: unknown option --bogus/],
      [["brokers", "--describe", "x"], /^nereus admin: --describe is for topics and groups/],
      [["topics", "--admin-url", "ftp://example"], /^nereus admin: --admin-url must be an http/],
      [["groups", "--describe"], /^nereus admin: --describe needs a value/],
      [["topics", "extra"], /^nereus admin: unexpected argument "extra"/],
    ];
    const results = await Promise.all(cases.map(([args]) => nereusAdmin(...args)));
    for (const [index, result] of results.entries()) {
      expect(result.code, cases[index]![0].join(" ")).toBe(2);
      expect(result.stderr).toMatch(cases[index]![1]);
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
    const helps = await Promise.all([
      nereusAdmin("--help"),
      nereusAdmin("topics", "--help"),
      nereusAdmin("groups", "-h"),
      nereusAdmin("help", "brokers"),
    ]);
    expect(helps.map((help) => help.code)).toEqual([0, 0, 0, 0]);
    expect(helps[0]?.out).toMatch(/^Usage: nereus admin <command> \[options\]/);
    expect(helps[1]?.out).toMatch(/^Usage: nereus admin topics \[--describe <topic>\]/);
    expect(helps[2]?.out).toMatch(/^Usage: nereus admin groups \[--describe <group>\]/);
    expect(helps[3]?.out).toMatch(/^Usage: nereus admin brokers/);
  });
});
