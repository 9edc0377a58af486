import { ErrorCode, NereusError, type StreamHead } from "@nereus/core";
import type { CommittedOffset, GroupListing } from "@nereus/kafka";
import { describe, expect, test } from "vitest";
import type { AdminContext } from "./admin-context.js";
import { lagOf, readGroupLag } from "./group-lag.js";
import { partitionStreamId } from "./partition-views.js";

const TOPIC_ID = "0b5f5b0e-7e0c-4a3a-9a54-0f4f7b0a6c11";

function committed(groupId: string, topic: string, partition: number, offset: number): CommittedOffset {
  return {
    groupId,
    topic,
    partition,
    committedOffset: offset,
    committedLeaderEpoch: -1,
    metadata: "",
    commitTimestampMs: 0,
  };
}

/** A context whose coordinator, topic catalog and stream heads answer from tables, counting head reads. */
function context(
  offsets: Record<string, CommittedOffset[]>,
  ends: readonly number[],
): { context: AdminContext; headReads: string[] } {
  const headReads: string[] = [];
  const streams = new Map(ends.map((end, partition) => [partitionStreamId(TOPIC_ID, partition), end]));
  const fake = {
    coordinator: {
      committedOffsets: (groupId: string) => {
        const byTopic = new Map<string, Map<number, CommittedOffset>>();
        for (const record of offsets[groupId] ?? []) {
          if (!byTopic.has(record.topic)) byTopic.set(record.topic, new Map());
          byTopic.get(record.topic)!.set(record.partition, record);
        }
        return Promise.resolve(byTopic);
      },
    },
    kafka: {
      topics: { list: () => Promise.resolve([{ name: "orders", topicId: TOPIC_ID, partitionCount: ends.length }]) },
    },
    storage: {
      store: {
        getHead: (streamId: string) => {
          headReads.push(streamId);
          const end = streams.get(streamId);
          if (end === undefined) return Promise.reject(new NereusError(ErrorCode.STREAM_NOT_FOUND, "no stream"));
          return Promise.resolve({ committedEndOffset: end } as StreamHead);
        },
      },
    },
  };
  return { context: fake as unknown as AdminContext, headReads };
}

const listing = (groupId: string): GroupListing => ({ groupId, protocolType: "consumer", state: "Empty", members: 0 });

describe("readGroupLag", () => {
  test("lag is end − committed; unknown topics and partitions have no end; each head is read once", async () => {
    const { context: ctx, headReads } = context(
      {
        a: [committed("a", "orders", 0, 4), committed("a", "orders", 1, 9), committed("a", "gone", 0, 3)],
        b: [committed("b", "orders", 1, 2), committed("b", "orders", 7, 1)],
      },
      [10, 9],
    );
    const reading = await readGroupLag(ctx, [listing("a"), listing("b")]);
    expect(reading.omittedPartitions).toBe(0);
    const lags = reading.groups.map((group) =>
      group.partitions?.map((partition) => [
        partition.committed.topic,
        partition.committed.partition,
        lagOf(partition),
      ]),
    );
    expect(lags).toEqual([
      [
        ["gone", 0, undefined],
        ["orders", 0, 6],
        ["orders", 1, 0],
      ],
      [
        ["orders", 1, 7],
        ["orders", 7, undefined],
      ],
    ]);
    expect(headReads.sort()).toEqual([partitionStreamId(TOPIC_ID, 0), partitionStreamId(TOPIC_ID, 1)].sort());
  });

  test("the bound: groups in the given order until their partitions exceed it, the rest counted as omitted", async () => {
    const { context: ctx } = context(
      {
        a: [committed("a", "orders", 0, 1)],
        b: [committed("b", "orders", 0, 1), committed("b", "orders", 1, 1)],
        c: [committed("c", "orders", 1, 1)],
        d: [],
      },
      [5, 5],
    );
    const reading = await readGroupLag(ctx, ["a", "b", "c", "d"].map(listing), { maxPartitions: 2 });
    expect(
      reading.groups.map((group) => [group.group.groupId, group.committedPartitions, group.partitions?.length]),
    ).toEqual([
      ["a", 1, 1],
      ["b", 2, undefined],
      ["c", 1, undefined],
      ["d", 0, 0],
    ]);
    expect(reading.omittedPartitions).toBe(3);
  });
});
