import { InMemoryMetadataStore } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { type GroupCoordinator, createGroupCoordinator } from "./group-coordinator.js";
import type { CoordinatorEndpoint, GroupOwnership } from "./group-ownership.js";
import { groupRequest, joinGroupBody } from "./group-requests.js";
import { decodeGroupSnapshot, encodeGroupSnapshot, groupStateKey, type GroupSnapshot } from "./group-snapshot.js";
import { ManualGroupClock } from "./manual-group-clock.js";

const CONTEXT = { peer: "127.0.0.1:50000" };
const GROUP = "orders";

/** One group that exactly one of two brokers holds at a time (`holder`). */
class SharedOwnership {
  holder = 1;
  of(nodeId: number): GroupOwnership {
    const endpoint: CoordinatorEndpoint = { nodeId: this.holder, host: "broker.test", port: 9092 };
    return {
      coordinatorOf: () => endpoint,
      holdsGroup: () => this.holder === nodeId,
      claimGroup: () => Promise.resolve(this.holder === nodeId),
    };
  }
}

function coordinatorOn(metadata: InMemoryMetadataStore, shared: SharedOwnership, nodeId: number): GroupCoordinator {
  return createGroupCoordinator({
    metadata,
    cluster: "test",
    nodeId,
    host: "broker.test",
    port: 9092,
    clock: new ManualGroupClock(),
    initialRebalanceDelayMs: 0,
    minSessionTimeoutMs: 1_000,
    ownership: shared.of(nodeId),
  });
}

async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe("group snapshots", () => {
  test("round-trip through their stored bytes", () => {
    const snapshot: GroupSnapshot = {
      generationId: 4,
      protocolType: "consumer",
      protocolName: "range",
      leaderId: "m-1",
      members: [
        {
          memberId: "m-1",
          groupInstanceId: null,
          clientId: "c",
          clientHost: "/127.0.0.1",
          sessionTimeoutMs: 10_000,
          rebalanceTimeoutMs: 30_000,
          protocols: [{ name: "range", metadata: new Uint8Array([1, 2]) }],
          assignment: new Uint8Array([9]),
        },
        {
          memberId: "m-2",
          groupInstanceId: "static-2",
          clientId: "d",
          clientHost: "/127.0.0.2",
          sessionTimeoutMs: 6_000,
          rebalanceTimeoutMs: 6_000,
          protocols: [],
          assignment: new Uint8Array(0),
        },
      ],
    };
    const key = groupStateKey("test", GROUP);
    expect(decodeGroupSnapshot(encodeGroupSnapshot(snapshot), key)).toEqual(snapshot);
    expect(() => decodeGroupSnapshot(encodeGroupSnapshot({ ...snapshot, leaderId: "nobody" }), key)).toThrow(/leader/);
  });

  test("a coordinator that takes a group over continues its generation: heartbeats and commits go on", async () => {
    const metadata = new InMemoryMetadataStore();
    const shared = new SharedOwnership();
    const first = coordinatorOn(metadata, shared, 1);
    const second = coordinatorOn(metadata, shared, 2);

    const required = await first.handlers.JoinGroup.handle(CONTEXT, groupRequest(11, 5, joinGroupBody(GROUP, "")));
    const joined = await first.handlers.JoinGroup.handle(
      CONTEXT,
      groupRequest(11, 5, joinGroupBody(GROUP, required.memberId)),
    );
    expect(joined.errorCode).toBe(KafkaErrorCode.NONE);
    const assignment = new Uint8Array([7, 7]);
    const synced = await first.handlers.SyncGroup.handle(
      CONTEXT,
      groupRequest(14, 3, {
        groupId: GROUP,
        generationId: joined.generationId,
        memberId: joined.memberId,
        groupInstanceId: null,
        protocolType: null,
        protocolName: null,
        assignments: [{ memberId: joined.memberId, assignment }],
      }),
    );
    expect(synced.errorCode).toBe(KafkaErrorCode.NONE);
    await settle();

    // The group moves to broker 2: broker 1 lets it go, broker 2 serves the same member at the same generation.
    shared.holder = 2;
    first.releaseGroup(GROUP);
    const member = { groupId: GROUP, generationId: joined.generationId, memberId: joined.memberId };
    const heartbeat = await second.handlers.Heartbeat.handle(
      CONTEXT,
      groupRequest(12, 3, { ...member, groupInstanceId: null }),
    );
    expect(heartbeat.errorCode).toBe(KafkaErrorCode.NONE);
    const committed = await second.handlers.OffsetCommit.handle(
      CONTEXT,
      groupRequest(8, 7, {
        groupId: GROUP,
        generationIdOrMemberEpoch: joined.generationId,
        memberId: joined.memberId,
        groupInstanceId: null,
        retentionTimeMs: -1,
        topics: [
          {
            name: "t",
            partitions: [
              {
                partitionIndex: 0,
                committedOffset: 5,
                committedLeaderEpoch: -1,
                commitTimestamp: -1,
                committedMetadata: null,
              },
            ],
          },
        ],
      }),
    );
    expect(committed.topics[0]?.partitions[0]?.errorCode).toBe(KafkaErrorCode.NONE);
    expect(second.group(GROUP)?.generationId).toBe(joined.generationId);
    expect(second.group(GROUP)?.summary().members[0]?.assignment).toEqual(assignment);

    // The member leaves: the group turns Empty and its stored membership goes.
    const left = await second.handlers.LeaveGroup.handle(
      CONTEXT,
      groupRequest(13, 3, {
        groupId: GROUP,
        memberId: "",
        members: [{ memberId: joined.memberId, groupInstanceId: null, reason: null }],
      }),
    );
    expect(left.members[0]?.errorCode).toBe(KafkaErrorCode.NONE);
    await settle();
    expect(await metadata.get(groupStateKey("test", GROUP))).toBeUndefined();
  });

  test("without a stored membership the new coordinator does not know the member (it rejoins)", async () => {
    const metadata = new InMemoryMetadataStore();
    const shared = new SharedOwnership();
    shared.holder = 2;
    const second = coordinatorOn(metadata, shared, 2);
    const heartbeat = await second.handlers.Heartbeat.handle(
      CONTEXT,
      groupRequest(12, 3, { groupId: GROUP, generationId: 1, memberId: "m", groupInstanceId: null }),
    );
    expect(heartbeat.errorCode).toBe(KafkaErrorCode.UNKNOWN_MEMBER_ID);
  });
});
