// The Java kafka-clients interop scenario, run unchanged against Apache Kafka (the control that proves the driver)
// and against the Nereus broker: an idempotent producer sends keyed records with headers to a 4-partition topic, a
// consumer group of two members reads them all back exactly once and commits; the broker restarts; the committed
// offsets are still there; more records are produced and the same group resumes exactly after its commits.
import { expect } from "vitest";
import {
  type CommittedOffsets,
  type CommittedResult,
  type ConsumeGroupResult,
  type CreateTopicResult,
  type JavaDriver,
  type ProduceResult,
  runDriver,
} from "../../src/index.js";

/** A broker the scenario can use and restart. */
export interface ScenarioBroker {
  readonly bootstrap: string;
  restart(): Promise<void>;
}

export interface ScenarioOptions {
  readonly topic: string;
  readonly group: string;
  readonly partitions?: number;
  /** Records before the restart (default 2,000). */
  readonly first?: number;
  /** Records after the restart (default 1,000). */
  readonly second?: number;
  readonly log?: (line: string) => void;
}

/** What the scenario observed, for the test's report. */
export interface ScenarioReport {
  readonly firstRead: ConsumeGroupResult;
  readonly committedAfterRestart: CommittedOffsets;
  readonly secondRead: ConsumeGroupResult;
}

function expectExactlyOnce(read: ConsumeGroupResult, count: number): void {
  expect(read.error, "no member failed").toBeUndefined();
  expect(read.timedOut, "the group read everything in time").toBe(false);
  expect({
    distinct: read.distinct,
    missing: read.missing,
    duplicates: read.duplicates,
    unexpected: read.unexpected,
    bad: read.bad,
  }).toEqual({
    distinct: count,
    missing: 0,
    duplicates: 0,
    unexpected: 0,
    bad: 0,
  });
  expect(read.shared, "both members held partitions").toBe(true);
  for (const member of Object.values(read.members))
    expect(member.consumed, `every member consumed (${read.assignments})`).toBeGreaterThan(0);
  for (const [partition, offsets] of Object.entries(read.partitions)) {
    expect({ partition, duplicateOffsets: offsets.duplicateOffsets, offsetHoles: offsets.offsetHoles }).toEqual({
      partition,
      duplicateOffsets: 0,
      offsetHoles: 0,
    });
  }
  expectCommittedAtEnd(read.committed);
}

function expectCommittedAtEnd(committed: CommittedOffsets): void {
  for (const [partition, offsets] of Object.entries(committed)) {
    expect({ partition, committed: offsets.committed }).toEqual({ partition, committed: offsets.end });
  }
}

/** Runs the scenario; assertions fail the calling test. */
export async function runInteropScenario(
  driver: JavaDriver,
  broker: ScenarioBroker,
  options: ScenarioOptions,
): Promise<ScenarioReport> {
  const log = options.log ?? (() => {});
  const partitions = options.partitions ?? 4;
  const first = options.first ?? 2_000;
  const second = options.second ?? 1_000;
  const { topic, group } = options;

  const created = await runDriver<CreateTopicResult>(driver, "create-topic", {
    bootstrap: broker.bootstrap,
    topic,
    partitions,
  });
  expect(created).toMatchObject({ topic, partitions, created: true });

  const produced = await runDriver<ProduceResult>(driver, "produce", {
    bootstrap: broker.bootstrap,
    topic,
    from: 0,
    count: first,
  });
  expect(produced.firstError).toBeUndefined();
  expect({ acked: produced.acked, errors: produced.errors }).toEqual({ acked: first, errors: 0 });
  expect(Object.keys(produced.partitions).length, "records spread over the partitions by key").toBe(partitions);
  for (const range of Object.values(produced.partitions))
    expect(range.last - range.first + 1, "offsets contiguous per partition").toBe(range.count);
  log(`produced ${String(first)} records in ${produced.seconds.toFixed(2)} s`);

  const firstRead = await runDriver<ConsumeGroupResult>(driver, "consume-group", {
    bootstrap: broker.bootstrap,
    topic,
    group,
    members: 2,
    from: 0,
    count: first,
  });
  log(
    `group read ${String(firstRead.distinct)} records in ${firstRead.seconds.toFixed(2)} s, assignments ${firstRead.assignments}`,
  );
  expectExactlyOnce(firstRead, first);
  const endsBefore = Object.values(firstRead.committed).reduce((sum, p) => sum + p.end, 0);
  expect(endsBefore).toBe(first);

  await broker.restart();
  log("broker restarted");

  const after = await runDriver<CommittedResult>(driver, "committed", { bootstrap: broker.bootstrap, topic, group });
  expect(after.committed, "committed offsets survive the restart").toEqual(firstRead.committed);

  const more = await runDriver<ProduceResult>(driver, "produce", {
    bootstrap: broker.bootstrap,
    topic,
    from: first,
    count: second,
  });
  expect({ acked: more.acked, errors: more.errors, firstError: more.firstError }).toEqual({
    acked: second,
    errors: 0,
    firstError: undefined,
  });
  for (const [partition, range] of Object.entries(more.partitions)) {
    expect({ partition, first: range.first }, "new records follow the old ones").toEqual({
      partition,
      first: firstRead.committed[partition]?.end,
    });
  }

  const secondRead = await runDriver<ConsumeGroupResult>(driver, "consume-group", {
    bootstrap: broker.bootstrap,
    topic,
    group,
    members: 2,
    from: first,
    count: second,
  });
  log(`group resumed: ${String(secondRead.distinct)} new records, ${String(secondRead.unexpected)} redelivered`);
  expectExactlyOnce(secondRead, second);
  for (const [partition, range] of Object.entries(secondRead.partitions)) {
    expect({ partition, first: range.first }, "the group resumed at its committed offset").toEqual({
      partition,
      first: firstRead.committed[partition]?.committed,
    });
  }
  return { firstRead, committedAfterRestart: after.committed, secondRead };
}
