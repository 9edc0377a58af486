import { InMemoryMetadataStore } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { ResponseBody } from "../protocol/supported-apis.js";
import { type GroupCoordinator, type GroupCoordinatorOptions, createGroupCoordinator } from "./group-coordinator.js";
import { groupRequest, joinGroupBody } from "./group-requests.js";
import { ManualGroupClock } from "./manual-group-clock.js";

const CLIENT = { clientHost: "/127.0.0.1" };
const E = KafkaErrorCode;

interface Setup {
  readonly clock: ManualGroupClock;
  readonly metadata: InMemoryMetadataStore;
  readonly coordinator: GroupCoordinator;
  readonly events: string[];
}

function setup(
  options: Partial<GroupCoordinatorOptions> = {},
  metadata = new InMemoryMetadataStore(),
  clock = new ManualGroupClock(),
): Setup {
  const events: string[] = [];
  const coordinator = createGroupCoordinator({
    metadata,
    cluster: "test",
    nodeId: 7,
    host: "broker.test",
    port: 19092,
    clock,
    initialRebalanceDelayMs: 0,
    minSessionTimeoutMs: 1_000,
    logger: { info: (event) => events.push(event), warn: (event) => events.push(`warn: ${event}`) },
    ...options,
  });
  return { clock, metadata, coordinator, events };
}

type JoinOptions = Parameters<typeof joinGroupBody>[2] & { version?: number; clientId?: string };

function join(
  coordinator: GroupCoordinator,
  groupId: string,
  memberId: string,
  options: JoinOptions = {},
): Promise<ResponseBody<11>> {
  return coordinator.joinGroup(
    groupRequest(
      11,
      options.version ?? 5,
      joinGroupBody(groupId, memberId, options),
      options.clientId ?? "test-client",
    ),
    CLIENT,
  );
}

/** MEMBER_ID_REQUIRED dance: returns the assigned member id and the parked second JoinGroup. */
async function joinNew(
  coordinator: GroupCoordinator,
  groupId: string,
  options: JoinOptions = {},
): Promise<{ memberId: string; joined: Promise<ResponseBody<11>> }> {
  const first = await join(coordinator, groupId, "", options);
  expect(first.errorCode).toBe(E.MEMBER_ID_REQUIRED);
  expect(first.memberId).toMatch(/^test-client-[0-9a-f-]{36}$/);
  return { memberId: first.memberId, joined: join(coordinator, groupId, first.memberId, options) };
}

function sync(
  coordinator: GroupCoordinator,
  groupId: string,
  memberId: string,
  generationId: number,
  assignments: { memberId: string; assignment: Uint8Array }[] = [],
  version = 3,
): Promise<ResponseBody<14>> {
  return coordinator.syncGroup(
    groupRequest(14, version, {
      groupId,
      generationId,
      memberId,
      groupInstanceId: null,
      protocolType: null,
      protocolName: null,
      assignments,
    }),
  );
}

function heartbeat(
  coordinator: GroupCoordinator,
  groupId: string,
  memberId: string,
  generationId: number,
  groupInstanceId: string | null = null,
): number {
  return coordinator.heartbeat(groupRequest(12, 3, { groupId, generationId, memberId, groupInstanceId })).errorCode;
}

function commit(
  coordinator: GroupCoordinator,
  groupId: string,
  memberId: string,
  generationId: number,
  offsets: Record<string, Record<number, number>>,
  options: { version?: number; metadata?: string | null; partitions?: Record<string, number> } = {},
): Promise<ResponseBody<8>> {
  const topics = Object.entries(offsets).map(([name, partitions]) => ({
    name,
    partitions: Object.entries(partitions).map(([partition, offset]) => ({
      partitionIndex: Number(partition),
      committedOffset: offset,
      committedLeaderEpoch: 3,
      commitTimestamp: -1,
      committedMetadata: options.metadata === undefined ? `meta-${partition}` : options.metadata,
    })),
  }));
  return coordinator.offsetCommit(
    groupRequest(8, options.version ?? 7, {
      groupId,
      generationIdOrMemberEpoch: generationId,
      memberId,
      groupInstanceId: null,
      retentionTimeMs: -1,
      topics,
    }),
    options.partitions === undefined
      ? {}
      : {
          clientHost: "/127.0.0.1",
          topics: {
            lookup: (name) =>
              Promise.resolve(
                options.partitions?.[name] === undefined ? undefined : { partitionCount: options.partitions[name] },
              ),
          },
        },
  );
}

function commitCodes(response: ResponseBody<8>): number[] {
  return response.topics.flatMap((topic) => topic.partitions.map((partition) => partition.errorCode));
}

async function fetchOffsets(
  coordinator: GroupCoordinator,
  groupId: string,
  topics: Record<string, number[]> | null,
  version = 4,
): Promise<ResponseBody<9>> {
  return coordinator.offsetFetch(
    groupRequest(9, version, {
      groupId,
      topics:
        topics === null ? null : Object.entries(topics).map(([name, partitionIndexes]) => ({ name, partitionIndexes })),
      groups: [],
      requireStable: false,
    }),
  );
}

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

/** One member group taken to Stable: returns the member id and generation. */
async function stableSingleMember(
  coordinator: GroupCoordinator,
  groupId: string,
  options: JoinOptions = {},
): Promise<{ memberId: string; generationId: number }> {
  const { memberId, joined } = await joinNew(coordinator, groupId, options);
  const response = await joined;
  expect(response.errorCode).toBe(E.NONE);
  const synced = await sync(coordinator, groupId, memberId, response.generationId, [
    { memberId, assignment: bytes(9) },
  ]);
  expect(synced.errorCode).toBe(E.NONE);
  return { memberId, generationId: response.generationId };
}

describe("FindCoordinator", () => {
  test("answers this node for groups (v0-3 and batched v4) and refuses transaction coordinators", () => {
    const { coordinator } = setup();
    const v1 = coordinator.findCoordinator(groupRequest(10, 1, { key: "g", keyType: 0, coordinatorKeys: [] }));
    expect(v1).toMatchObject({ errorCode: E.NONE, nodeId: 7, host: "broker.test", port: 19092 });
    const v0 = coordinator.findCoordinator(groupRequest(10, 0, { key: "g", keyType: 0, coordinatorKeys: [] }));
    expect(v0).toMatchObject({ errorCode: E.NONE, nodeId: 7 });
    const txn = coordinator.findCoordinator(groupRequest(10, 2, { key: "t", keyType: 1, coordinatorKeys: [] }));
    expect(txn).toMatchObject({ errorCode: E.INVALID_REQUEST, nodeId: -1 });
    const v4 = coordinator.findCoordinator(groupRequest(10, 4, { key: "", keyType: 0, coordinatorKeys: ["a", "b"] }));
    expect(v4.coordinators).toEqual([
      { key: "a", nodeId: 7, host: "broker.test", port: 19092, errorCode: E.NONE, errorMessage: null },
      { key: "b", nodeId: 7, host: "broker.test", port: 19092, errorCode: E.NONE, errorMessage: null },
    ]);
  });
});

describe("JoinGroup and SyncGroup", () => {
  test("v4+ asks a new member to rejoin with a generated id, then elects it leader of generation 1", async () => {
    const { coordinator } = setup();
    const { memberId, joined } = await joinNew(coordinator, "g");
    const response = await joined;
    expect(response).toMatchObject({
      errorCode: E.NONE,
      generationId: 1,
      protocolName: "range",
      leader: memberId,
      memberId,
    });
    expect(response.members).toEqual([{ memberId, groupInstanceId: null, metadata: bytes(1, 2, 3) }]);
    expect(coordinator.group("g")?.state).toBe("CompletingRebalance");
    const synced = await sync(coordinator, "g", memberId, 1, [{ memberId, assignment: bytes(4, 5) }]);
    expect(synced).toMatchObject({ errorCode: E.NONE, assignment: bytes(4, 5) });
    expect(coordinator.group("g")?.state).toBe("Stable");
    expect(heartbeat(coordinator, "g", memberId, 1)).toBe(E.NONE);
  });

  test("v0-3 members join without the member-id round trip; v7+ reports the protocol type", async () => {
    const { coordinator } = setup();
    const v3 = await join(coordinator, "g", "", { version: 3 });
    expect(v3).toMatchObject({ errorCode: E.NONE, generationId: 1 });
    expect(v3.memberId).not.toBe("");
    const other = await join(coordinator, "h", "", { version: 7 });
    expect(other.errorCode).toBe(E.MEMBER_ID_REQUIRED);
    expect(other.protocolName).toBeNull();
    const joined = await join(coordinator, "h", other.memberId, { version: 7 });
    expect(joined).toMatchObject({ errorCode: E.NONE, protocolType: "consumer", protocolName: "range" });
  });

  test("a second member triggers a rebalance: the leader learns every subscription, followers wait for its assignment", async () => {
    const { coordinator } = setup();
    const first = await stableSingleMember(coordinator, "g");
    const second = await joinNew(coordinator, "g", { protocols: [{ name: "range", metadata: bytes(7) }] });
    expect(coordinator.group("g")?.state).toBe("PreparingRebalance");
    expect(heartbeat(coordinator, "g", first.memberId, first.generationId)).toBe(E.REBALANCE_IN_PROGRESS);
    const firstRejoin = join(coordinator, "g", first.memberId);
    const [leader, follower] = await Promise.all([firstRejoin, second.joined]);
    expect(leader).toMatchObject({ generationId: 2, leader: first.memberId });
    expect(leader.members.map((member) => member.memberId)).toEqual([first.memberId, second.memberId]);
    expect(leader.members[1]?.metadata).toEqual(bytes(7));
    expect(follower).toMatchObject({ generationId: 2, leader: first.memberId, members: [] });

    const followerSync = sync(coordinator, "g", second.memberId, 2);
    let followerDone = false;
    void followerSync.then(() => (followerDone = true));
    await Promise.resolve();
    expect(followerDone).toBe(false);
    const leaderSync = await sync(coordinator, "g", first.memberId, 2, [
      { memberId: first.memberId, assignment: bytes(1) },
      { memberId: second.memberId, assignment: bytes(2) },
    ]);
    expect(leaderSync.assignment).toEqual(bytes(1));
    expect((await followerSync).assignment).toEqual(bytes(2));
    // A late SyncGroup in Stable gets the stored assignment again.
    expect((await sync(coordinator, "g", second.memberId, 2)).assignment).toEqual(bytes(2));
  });

  test("members the leader leaves out get an empty (not null) assignment", async () => {
    const { coordinator } = setup();
    const first = await stableSingleMember(coordinator, "g");
    const second = await joinNew(coordinator, "g");
    const [leader] = await Promise.all([join(coordinator, "g", first.memberId), second.joined]);
    const followerSync = sync(coordinator, "g", second.memberId, leader.generationId, [], 5);
    await sync(
      coordinator,
      "g",
      first.memberId,
      leader.generationId,
      [{ memberId: first.memberId, assignment: bytes(1) }],
      5,
    );
    const response = await followerSync;
    expect(response).toMatchObject({ errorCode: E.NONE, protocolType: "consumer", protocolName: "range" });
    expect(response.assignment).toEqual(new Uint8Array(0));
  });

  test("the protocol every member supports wins by first-choice votes", async () => {
    const { coordinator, clock } = setup({ initialRebalanceDelayMs: 100 });
    const protocols = (...names: string[]): { name: string; metadata: Uint8Array }[] =>
      names.map((name) => ({ name, metadata: bytes(name.length) }));
    const a = await joinNew(coordinator, "g", { protocols: protocols("range", "roundrobin", "sticky") });
    const b = await joinNew(coordinator, "g", { protocols: protocols("roundrobin", "range") });
    const c = await joinNew(coordinator, "g", { protocols: protocols("roundrobin", "range") });
    // b and c arrived during the first delay, which therefore runs once more.
    await clock.advance(200);
    const [leader] = await Promise.all([a.joined, b.joined, c.joined]);
    expect(leader.protocolName).toBe("roundrobin");
    expect(leader.members.map((member) => member.metadata)).toEqual([bytes(10), bytes(10), bytes(10)]);
    const incompatible = await join(coordinator, "g", "", { protocols: protocols("sticky") });
    expect(incompatible.errorCode).toBe(E.INCONSISTENT_GROUP_PROTOCOL);
    const otherType = await join(coordinator, "g", "", { protocolType: "connect", protocols: protocols("range") });
    expect(otherType.errorCode).toBe(E.INCONSISTENT_GROUP_PROTOCOL);
  });

  test("bad requests: empty group id, session timeout out of range, unknown member, empty protocol list", async () => {
    const { coordinator } = setup({ maxSessionTimeoutMs: 60_000 });
    expect((await join(coordinator, "", "")).errorCode).toBe(E.INVALID_GROUP_ID);
    expect((await join(coordinator, "g", "", { sessionTimeoutMs: 999 })).errorCode).toBe(E.INVALID_SESSION_TIMEOUT);
    expect((await join(coordinator, "g", "", { sessionTimeoutMs: 60_001 })).errorCode).toBe(E.INVALID_SESSION_TIMEOUT);
    expect((await join(coordinator, "g", "nobody")).errorCode).toBe(E.UNKNOWN_MEMBER_ID);
    expect((await join(coordinator, "g", "", { protocols: [] })).errorCode).toBe(E.INCONSISTENT_GROUP_PROTOCOL);
    await stableSingleMember(coordinator, "g");
    expect((await join(coordinator, "g", "nobody")).errorCode).toBe(E.UNKNOWN_MEMBER_ID);
    expect((await sync(coordinator, "g", "nobody", 1)).errorCode).toBe(E.UNKNOWN_MEMBER_ID);
    expect((await sync(coordinator, "missing", "nobody", 1)).errorCode).toBe(E.UNKNOWN_MEMBER_ID);
  });

  test("a follower rejoining with unchanged metadata keeps the generation; the leader rejoining forces a rebalance", async () => {
    const { coordinator } = setup();
    const first = await stableSingleMember(coordinator, "g");
    const second = await joinNew(coordinator, "g");
    const [leader] = await Promise.all([join(coordinator, "g", first.memberId), second.joined]);
    await Promise.all([
      sync(coordinator, "g", second.memberId, leader.generationId),
      sync(coordinator, "g", first.memberId, leader.generationId, []),
    ]);
    const again = await join(coordinator, "g", second.memberId);
    expect(again).toMatchObject({ errorCode: E.NONE, generationId: leader.generationId, members: [] });
    expect(coordinator.group("g")?.state).toBe("Stable");
    const leaderAgain = join(coordinator, "g", first.memberId);
    expect(coordinator.group("g")?.state).toBe("PreparingRebalance");
    const [rebalanced] = await Promise.all([leaderAgain, join(coordinator, "g", second.memberId)]);
    expect(rebalanced.generationId).toBe(leader.generationId + 1);
  });

  test("the initial rebalance delay gathers members that arrive together into one first generation", async () => {
    const { coordinator, clock } = setup({ initialRebalanceDelayMs: 3_000 });
    const a = await joinNew(coordinator, "g");
    await clock.advance(2_000);
    const b = await joinNew(coordinator, "g");
    let done = false;
    void Promise.all([a.joined, b.joined]).then(() => (done = true));
    // The delay ran out at 3 s with b newly arrived, so it waits another 3 s (until 6 s).
    await clock.advance(2_000);
    expect(done).toBe(false);
    await clock.advance(1_999);
    expect(done).toBe(false);
    await clock.advance(1);
    const [first, second] = await Promise.all([a.joined, b.joined]);
    expect(first.generationId).toBe(1);
    expect(second.generationId).toBe(1);
    expect(first.members).toHaveLength(2);
  });
});

describe("timeouts and fencing", () => {
  test("a member that stops heartbeating is removed after its session timeout and the others rebalance", async () => {
    const { coordinator, clock, events } = setup();
    const first = await stableSingleMember(coordinator, "g", { sessionTimeoutMs: 10_000 });
    const second = await joinNew(coordinator, "g", { sessionTimeoutMs: 6_000 });
    const [leader] = await Promise.all([
      join(coordinator, "g", first.memberId, { sessionTimeoutMs: 10_000 }),
      second.joined,
    ]);
    await Promise.all([
      sync(coordinator, "g", second.memberId, leader.generationId),
      sync(coordinator, "g", first.memberId, leader.generationId, []),
    ]);
    await clock.advance(3_000);
    expect(heartbeat(coordinator, "g", first.memberId, leader.generationId)).toBe(E.NONE);
    expect(events).not.toContain("group member removed");
    // The second member sent nothing for 6 s, its session timeout.
    await clock.advance(3_000);
    expect(events).toContain("group member removed");
    expect(heartbeat(coordinator, "g", first.memberId, leader.generationId)).toBe(E.REBALANCE_IN_PROGRESS);
    expect(heartbeat(coordinator, "g", second.memberId, leader.generationId)).toBe(E.UNKNOWN_MEMBER_ID);
    const rejoined = await join(coordinator, "g", first.memberId);
    expect(rejoined).toMatchObject({ errorCode: E.NONE, generationId: leader.generationId + 1 });
    expect(rejoined.members.map((member) => member.memberId)).toEqual([first.memberId]);
  });

  test("members that do not rejoin within the rebalance timeout are dropped from the new generation", async () => {
    const { coordinator, clock } = setup();
    const first = await stableSingleMember(coordinator, "g", { rebalanceTimeoutMs: 20_000, sessionTimeoutMs: 30_000 });
    const second = await joinNew(coordinator, "g", { rebalanceTimeoutMs: 5_000, sessionTimeoutMs: 30_000 });
    let settled = false;
    void second.joined.then(() => (settled = true));
    await clock.advance(19_999);
    expect(settled).toBe(false);
    await clock.advance(1);
    const response = await second.joined;
    expect(response).toMatchObject({ errorCode: E.NONE, generationId: 2, leader: second.memberId });
    expect(response.members.map((member) => member.memberId)).toEqual([second.memberId]);
    expect(heartbeat(coordinator, "g", first.memberId, 1)).toBe(E.UNKNOWN_MEMBER_ID);
  });

  test("when the leader never sends SyncGroup, the laggards are removed and waiting followers are told to rejoin", async () => {
    const { coordinator, clock } = setup();
    const first = await stableSingleMember(coordinator, "g", { rebalanceTimeoutMs: 5_000 });
    const second = await joinNew(coordinator, "g", { rebalanceTimeoutMs: 5_000 });
    const [leader] = await Promise.all([
      join(coordinator, "g", first.memberId, { rebalanceTimeoutMs: 5_000 }),
      second.joined,
    ]);
    const followerSync = sync(coordinator, "g", second.memberId, leader.generationId);
    await clock.advance(5_000);
    expect((await followerSync).errorCode).toBe(E.REBALANCE_IN_PROGRESS);
    expect(heartbeat(coordinator, "g", first.memberId, leader.generationId)).toBe(E.UNKNOWN_MEMBER_ID);
    const rejoined = await join(coordinator, "g", second.memberId);
    expect(rejoined).toMatchObject({ generationId: leader.generationId + 1, leader: second.memberId });
  });

  test("requests of an older generation are fenced", async () => {
    const { coordinator } = setup();
    const first = await stableSingleMember(coordinator, "g");
    const second = await joinNew(coordinator, "g");
    const [leader] = await Promise.all([join(coordinator, "g", first.memberId), second.joined]);
    expect(leader.generationId).toBe(2);
    expect(heartbeat(coordinator, "g", first.memberId, 1)).toBe(E.ILLEGAL_GENERATION);
    expect((await sync(coordinator, "g", first.memberId, 1)).errorCode).toBe(E.ILLEGAL_GENERATION);
    expect(heartbeat(coordinator, "g", first.memberId, 2)).toBe(E.NONE);
    await Promise.all([sync(coordinator, "g", second.memberId, 2), sync(coordinator, "g", first.memberId, 2, [])]);
    expect(commitCodes(await commit(coordinator, "g", first.memberId, 1, { t: { 0: 5 } }))).toEqual([
      E.ILLEGAL_GENERATION,
    ]);
    expect(commitCodes(await commit(coordinator, "g", first.memberId, 2, { t: { 0: 5 } }))).toEqual([E.NONE]);
  });

  test("a pending member id that never comes back expires and does not hold up the rebalance", async () => {
    const { coordinator, clock } = setup();
    const first = await stableSingleMember(coordinator, "g", { sessionTimeoutMs: 30_000 });
    const ghost = await join(coordinator, "g", "", { sessionTimeoutMs: 6_000 });
    expect(ghost.errorCode).toBe(E.MEMBER_ID_REQUIRED);
    const leaving = coordinator.leaveGroup(groupRequest(13, 3, { groupId: "g", memberId: "", members: [] }));
    expect(leaving.members).toEqual([]);
    // A rebalance (the first member rejoins) waits for the pending id until it expires.
    const second = await joinNew(coordinator, "g", { sessionTimeoutMs: 30_000 });
    const rejoin = join(coordinator, "g", first.memberId, { sessionTimeoutMs: 30_000 });
    let done = false;
    void Promise.all([rejoin, second.joined]).then(() => (done = true));
    await clock.advance(5_999);
    expect(done).toBe(false);
    await clock.advance(1);
    expect(done).toBe(true);
    expect((await rejoin).members).toHaveLength(2);
  });
});

describe("LeaveGroup", () => {
  test("v0-2 single member and v3+ batches; the last member to leave empties and forgets the group", async () => {
    const { coordinator, clock } = setup();
    const first = await stableSingleMember(coordinator, "g");
    const second = await joinNew(coordinator, "g");
    const [leader] = await Promise.all([join(coordinator, "g", first.memberId), second.joined]);
    await Promise.all([
      sync(coordinator, "g", second.memberId, leader.generationId),
      sync(coordinator, "g", first.memberId, leader.generationId, []),
    ]);

    const v1 = coordinator.leaveGroup(groupRequest(13, 1, { groupId: "g", memberId: second.memberId, members: [] }));
    expect(v1.errorCode).toBe(E.NONE);
    expect(coordinator.group("g")?.state).toBe("PreparingRebalance");
    const rejoined = await join(coordinator, "g", first.memberId);
    expect(rejoined.members.map((member) => member.memberId)).toEqual([first.memberId]);

    const v3 = coordinator.leaveGroup(
      groupRequest(13, 3, {
        groupId: "g",
        memberId: "",
        members: [
          { memberId: first.memberId, groupInstanceId: null, reason: null },
          { memberId: "stranger", groupInstanceId: null, reason: null },
        ],
      }),
    );
    expect(v3.errorCode).toBe(E.NONE);
    expect(v3.members.map((member) => member.errorCode)).toEqual([E.NONE, E.UNKNOWN_MEMBER_ID]);
    expect(coordinator.group("g")).toBeUndefined();
    expect(clock.pending).toBe(0);
    const unknown = coordinator.leaveGroup(groupRequest(13, 0, { groupId: "g", memberId: "x", members: [] }));
    expect(unknown.errorCode).toBe(E.UNKNOWN_MEMBER_ID);
  });

  test("a member leaving while others are parked in JoinGroup completes the rebalance without it", async () => {
    const { coordinator } = setup();
    const first = await stableSingleMember(coordinator, "g");
    const second = await joinNew(coordinator, "g");
    coordinator.leaveGroup(
      groupRequest(13, 4, {
        groupId: "g",
        memberId: "",
        members: [{ memberId: first.memberId, groupInstanceId: null, reason: null }],
      }),
    );
    const response = await second.joined;
    expect(response).toMatchObject({ errorCode: E.NONE, leader: second.memberId });
    expect(response.members).toHaveLength(1);
  });
});

describe("static membership", () => {
  test("a restarted static member takes its place under a new id without a rebalance; the old id is fenced", async () => {
    const { coordinator } = setup();
    const leaderJoin = await join(coordinator, "g", "", { groupInstanceId: "leader-1" });
    expect(leaderJoin.errorCode).toBe(E.NONE);
    const follower = join(coordinator, "g", "", { groupInstanceId: "follower-1" });
    const leaderRejoin = join(coordinator, "g", leaderJoin.memberId, { groupInstanceId: "leader-1" });
    const [followerJoin, leader] = await Promise.all([follower, leaderRejoin]);
    expect(followerJoin.generationId).toBe(leader.generationId);
    const followerSync = sync(coordinator, "g", followerJoin.memberId, leader.generationId);
    await sync(coordinator, "g", leaderJoin.memberId, leader.generationId, [
      { memberId: followerJoin.memberId, assignment: bytes(3) },
    ]);
    expect((await followerSync).assignment).toEqual(bytes(3));

    const restarted = await join(coordinator, "g", "", { groupInstanceId: "follower-1" });
    expect(restarted).toMatchObject({ errorCode: E.NONE, generationId: leader.generationId });
    expect(restarted.memberId).not.toBe(followerJoin.memberId);
    expect(coordinator.group("g")?.state).toBe("Stable");
    expect((await sync(coordinator, "g", restarted.memberId, leader.generationId)).assignment).toEqual(bytes(3));
    expect(heartbeat(coordinator, "g", followerJoin.memberId, leader.generationId, "follower-1")).toBe(
      E.FENCED_INSTANCE_ID,
    );
    const leave = coordinator.leaveGroup(
      groupRequest(13, 3, {
        groupId: "g",
        memberId: "",
        members: [{ memberId: "", groupInstanceId: "follower-1", reason: null }],
      }),
    );
    expect(leave.members[0]?.errorCode).toBe(E.NONE);
    expect(coordinator.group("g")?.memberIds).toEqual([leaderJoin.memberId]);
  });
});

describe("OffsetCommit and OffsetFetch", () => {
  test("group members commit with their generation; simple consumers commit with generation -1 to a group without members", async () => {
    const { coordinator } = setup();
    expect(commitCodes(await commit(coordinator, "simple", "", -1, { t: { 0: 10, 1: 20 } }))).toEqual([E.NONE, E.NONE]);
    expect(commitCodes(await commit(coordinator, "nobody-home", "m", 3, { t: { 0: 1 } }))).toEqual([
      E.ILLEGAL_GENERATION,
    ]);
    const { memberId, generationId } = await stableSingleMember(coordinator, "g");
    expect(commitCodes(await commit(coordinator, "g", memberId, generationId, { t: { 0: 42 }, u: { 3: 7 } }))).toEqual([
      E.NONE,
      E.NONE,
    ]);
    expect(commitCodes(await commit(coordinator, "g", "", -1, { t: { 0: 1 } }))).toEqual([E.UNKNOWN_MEMBER_ID]);
    expect(commitCodes(await commit(coordinator, "g", "stranger", generationId, { t: { 0: 1 } }))).toEqual([
      E.UNKNOWN_MEMBER_ID,
    ]);
    expect(commitCodes(await commit(coordinator, "", "", -1, { t: { 0: 1 } }))).toEqual([E.INVALID_GROUP_ID]);
    const fetched = await fetchOffsets(coordinator, "g", { t: [0, 1], u: [3] });
    expect(fetched.errorCode).toBe(E.NONE);
    expect(fetched.topics).toEqual([
      {
        name: "t",
        partitions: [
          { partitionIndex: 0, committedOffset: 42, committedLeaderEpoch: 3, metadata: "meta-0", errorCode: E.NONE },
          { partitionIndex: 1, committedOffset: -1, committedLeaderEpoch: -1, metadata: "", errorCode: E.NONE },
        ],
      },
      {
        name: "u",
        partitions: [
          { partitionIndex: 3, committedOffset: 7, committedLeaderEpoch: 3, metadata: "meta-3", errorCode: E.NONE },
        ],
      },
    ]);
  });

  test("commits are refused while the leader's assignment is outstanding but allowed while members rejoin", async () => {
    const { coordinator } = setup();
    const first = await stableSingleMember(coordinator, "g");
    const second = await joinNew(coordinator, "g");
    expect(commitCodes(await commit(coordinator, "g", first.memberId, first.generationId, { t: { 0: 5 } }))).toEqual([
      E.NONE,
    ]);
    const [leader] = await Promise.all([join(coordinator, "g", first.memberId), second.joined]);
    expect(commitCodes(await commit(coordinator, "g", first.memberId, leader.generationId, { t: { 0: 6 } }))).toEqual([
      E.REBALANCE_IN_PROGRESS,
    ]);
  });

  test("null metadata is stored as empty, oversized metadata and bad partitions are refused per partition", async () => {
    const { coordinator } = setup({ maxOffsetMetadataBytes: 8 });
    const partitions = { t: 3 };
    expect(
      commitCodes(await commit(coordinator, "s", "", -1, { t: { 0: 1 } }, { metadata: null, partitions })),
    ).toEqual([E.NONE]);
    expect(
      commitCodes(await commit(coordinator, "s", "", -1, { t: { 1: 1 } }, { metadata: "ééééé", partitions })),
    ).toEqual([E.OFFSET_METADATA_TOO_LARGE]);
    expect(
      commitCodes(await commit(coordinator, "s", "", -1, { gone: { 0: 1 }, t: { 2: 5, 3: 6 } }, { partitions })),
    ).toEqual([E.UNKNOWN_TOPIC_OR_PARTITION, E.NONE, E.UNKNOWN_TOPIC_OR_PARTITION]);
    const fetched = await fetchOffsets(coordinator, "s", null);
    expect(fetched.topics).toEqual([
      {
        name: "t",
        partitions: [
          { partitionIndex: 0, committedOffset: 1, committedLeaderEpoch: 3, metadata: "", errorCode: E.NONE },
          { partitionIndex: 2, committedOffset: 5, committedLeaderEpoch: 3, metadata: "meta-2", errorCode: E.NONE },
        ],
      },
    ]);
  });

  test("OffsetFetch v8+ answers several groups at once, all topics when topics is null", async () => {
    const { coordinator } = setup();
    await commit(coordinator, "a", "", -1, { t: { 0: 1 } }, { version: 8 });
    await commit(coordinator, "b", "", -1, { t: { 0: 2 }, u: { 1: 3 } }, { version: 9 });
    const response = await coordinator.offsetFetch(
      groupRequest(9, 8, {
        groupId: "",
        topics: null,
        groups: [
          { groupId: "a", memberId: null, memberEpoch: -1, topics: [{ name: "t", partitionIndexes: [0, 5] }] },
          { groupId: "b", memberId: null, memberEpoch: -1, topics: null },
          { groupId: "", memberId: null, memberEpoch: -1, topics: null },
        ],
        requireStable: true,
      }),
    );
    expect(
      response.groups.map((group) => [
        group.groupId,
        group.errorCode,
        group.topics.map((topic) => [topic.name, topic.partitions.map((p) => p.committedOffset)]),
      ]),
    ).toEqual([
      ["a", E.NONE, [["t", [1, -1]]]],
      [
        "b",
        E.NONE,
        [
          ["t", [2]],
          ["u", [3]],
        ],
      ],
      ["", E.INVALID_GROUP_ID, []],
    ]);
  });

  test("committed offsets survive a coordinator restart; commits of many partitions span several transactions", async () => {
    const metadata = new InMemoryMetadataStore();
    const before = setup({}, metadata);
    const { memberId, generationId } = await stableSingleMember(before.coordinator, "g");
    const many: Record<number, number> = {};
    for (let partition = 0; partition < 300; partition += 1) many[partition] = partition * 10;
    expect(
      commitCodes(await commit(before.coordinator, "g", memberId, generationId, { big: many })).every(
        (code) => code === E.NONE,
      ),
    ).toBe(true);
    await before.coordinator.close();
    expect(before.clock.pending).toBe(0);

    const after = setup({}, metadata);
    const fetched = await fetchOffsets(after.coordinator, "g", null, 7);
    expect(fetched.topics[0]?.partitions).toHaveLength(300);
    expect(fetched.topics[0]?.partitions[299]).toMatchObject({ partitionIndex: 299, committedOffset: 2990 });
    // Membership did not survive: the old member must join again.
    expect(heartbeat(after.coordinator, "g", memberId, generationId)).toBe(E.UNKNOWN_MEMBER_ID);
    const described = await after.coordinator.describeGroups(
      groupRequest(15, 4, { groups: ["g", "never"], includeAuthorizedOperations: false }),
    );
    expect(described.groups.map((group) => [group.groupId, group.groupState, group.protocolType])).toEqual([
      ["g", "Empty", "consumer"],
      ["never", "Dead", ""],
    ]);
  });

  test("storage failures are answered with the retriable COORDINATOR_NOT_AVAILABLE and later commits still apply", async () => {
    const { coordinator, metadata, events } = setup();
    metadata.faults.add({ op: "txn", mode: "fail-before-apply" });
    expect(commitCodes(await commit(coordinator, "s", "", -1, { t: { 0: 1 } }))).toEqual([E.COORDINATOR_NOT_AVAILABLE]);
    expect(events).toContain("warn: group offset commit failed");
    expect(commitCodes(await commit(coordinator, "s", "", -1, { t: { 0: 2 } }))).toEqual([E.NONE]);
    metadata.faults.add({ op: "getMany", mode: "fail-before-apply" });
    expect((await fetchOffsets(coordinator, "s", { t: [0] })).errorCode).toBe(E.COORDINATOR_NOT_AVAILABLE);
    const v1 = await fetchOffsets(coordinator, "s", { t: [0] }, 1);
    expect(v1.topics[0]?.partitions[0]).toMatchObject({ committedOffset: 2, errorCode: E.NONE });
    metadata.faults.add({ op: "getMany", mode: "fail-before-apply" });
    const v1Failed = await fetchOffsets(coordinator, "s", { t: [0] }, 1);
    expect(v1Failed.topics[0]?.partitions[0]?.errorCode).toBe(E.COORDINATOR_NOT_AVAILABLE);
  });

  test("concurrent commits of one group apply in arrival order", async () => {
    const { coordinator } = setup();
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((offset) => commit(coordinator, "s", "", -1, { t: { 0: offset } })),
    );
    expect(results.flatMap(commitCodes)).toEqual([0, 0, 0, 0, 0]);
    expect((await fetchOffsets(coordinator, "s", { t: [0] })).topics[0]?.partitions[0]?.committedOffset).toBe(5);
  });
});

describe("DescribeGroups and ListGroups", () => {
  test("describe a stable group with members, metadata and assignments; list with state and type filters", async () => {
    const { coordinator } = setup();
    const { memberId } = await stableSingleMember(coordinator, "live");
    await commit(coordinator, "offsets-only", "", -1, { t: { 0: 1 } });
    const pending = await joinNew(coordinator, "joining");
    const described = await coordinator.describeGroups(
      groupRequest(15, 5, { groups: ["live", "joining", ""], includeAuthorizedOperations: true }),
    );
    expect(described.groups[0]).toMatchObject({
      errorCode: E.NONE,
      groupState: "Stable",
      protocolType: "consumer",
      protocolData: "range",
    });
    expect(described.groups[0]?.members).toEqual([
      {
        memberId,
        groupInstanceId: null,
        clientId: "test-client",
        clientHost: "/127.0.0.1",
        memberMetadata: bytes(1, 2, 3),
        memberAssignment: bytes(9),
      },
    ]);
    expect(described.groups[1]).toMatchObject({ groupState: "CompletingRebalance", protocolData: "" });
    expect(described.groups[2]).toMatchObject({ errorCode: E.INVALID_GROUP_ID });
    await pending.joined;

    const all = await coordinator.listGroups(groupRequest(16, 5, { statesFilter: [], typesFilter: [] }));
    expect(all.groups).toEqual([
      { groupId: "joining", protocolType: "consumer", groupState: "CompletingRebalance", groupType: "classic" },
      { groupId: "live", protocolType: "consumer", groupState: "Stable", groupType: "classic" },
      { groupId: "offsets-only", protocolType: "", groupState: "Empty", groupType: "classic" },
    ]);
    const stable = await coordinator.listGroups(
      groupRequest(16, 4, { statesFilter: ["stable", "EMPTY"], typesFilter: [] }),
    );
    expect(stable.groups.map((group) => group.groupId)).toEqual(["live", "offsets-only"]);
    const consumerType = await coordinator.listGroups(
      groupRequest(16, 5, { statesFilter: [], typesFilter: ["consumer"] }),
    );
    expect(consumerType.groups).toEqual([]);
  });
});

describe("read-only views", () => {
  test("listGroupStates lists stored and active groups with member counts; committedOffsets reads every partition", async () => {
    const { coordinator } = setup();
    const { memberId, generationId } = await stableSingleMember(coordinator, "live");
    await commit(coordinator, "live", memberId, generationId, { t: { 0: 5, 1: 7 } });
    await commit(coordinator, "offsets-only", "", -1, { u: { 2: 11 } });
    expect(await coordinator.listGroupStates()).toEqual([
      { groupId: "live", protocolType: "consumer", state: "Stable", members: 1 },
      { groupId: "offsets-only", protocolType: "", state: "Empty", members: 0 },
    ]);
    const live = await coordinator.committedOffsets("live");
    expect(
      [...(live.get("t")?.entries() ?? [])].map(([partition, record]) => [partition, record.committedOffset]),
    ).toEqual([
      [0, 5],
      [1, 7],
    ]);
    expect((await coordinator.committedOffsets("offsets-only")).get("u")?.get(2)?.committedOffset).toBe(11);
    expect((await coordinator.committedOffsets("nobody")).size).toBe(0);
  });
});

describe("DeleteGroups", () => {
  const deleteGroups = (coordinator: GroupCoordinator, groups: string[], version = 2) =>
    coordinator.deleteGroups(groupRequest(42, version, { groupsNames: groups }));

  test("deletes a group without members and its committed offsets; a group with members is NON_EMPTY_GROUP", async () => {
    const { coordinator } = setup();
    await commit(coordinator, "idle", "", -1, { t: { 0: 5, 1: 7 } });
    const { memberId, generationId } = await stableSingleMember(coordinator, "busy");
    expect(
      (await commit(coordinator, "busy", memberId, generationId, { t: { 0: 3 } })).topics[0]?.partitions[0]?.errorCode,
    ).toBe(E.NONE);
    expect(await deleteGroups(coordinator, ["idle", "busy", "never", ""], 0)).toEqual({
      throttleTimeMs: 0,
      results: [
        { groupId: "idle", errorCode: E.NONE },
        { groupId: "busy", errorCode: E.NON_EMPTY_GROUP },
        { groupId: "never", errorCode: E.GROUP_ID_NOT_FOUND },
        { groupId: "", errorCode: E.INVALID_GROUP_ID },
      ],
    });
    expect(
      (await fetchOffsets(coordinator, "idle", { t: [0, 1] })).topics[0]?.partitions.map(
        (partition) => partition.committedOffset,
      ),
    ).toEqual([-1, -1]);
    expect(
      (await coordinator.listGroups(groupRequest(16, 5, { statesFilter: [], typesFilter: [] }))).groups.map(
        (group) => group.groupId,
      ),
    ).toEqual(["busy"]);
    expect((await deleteGroups(coordinator, ["idle"])).results).toEqual([
      { groupId: "idle", errorCode: E.GROUP_ID_NOT_FOUND },
    ]);
    // Once its last member left, the group can go, offsets and all.
    coordinator.leaveGroup(groupRequest(13, 1, { groupId: "busy", memberId, members: [] }));
    expect((await deleteGroups(coordinator, ["busy"])).results).toEqual([{ groupId: "busy", errorCode: E.NONE }]);
    expect((await fetchOffsets(coordinator, "busy", { t: [0] })).topics[0]?.partitions[0]?.committedOffset).toBe(-1);
  });

  test("a storage failure is the retriable COORDINATOR_NOT_AVAILABLE and a retry finishes the deletion", async () => {
    const { coordinator, metadata } = setup();
    await commit(coordinator, "flaky", "", -1, { t: { 0: 1, 1: 2 } });
    metadata.faults.add({ op: "txn", mode: "fail-before-apply" });
    expect((await deleteGroups(coordinator, ["flaky"])).results).toEqual([
      { groupId: "flaky", errorCode: E.COORDINATOR_NOT_AVAILABLE },
    ]);
    expect((await fetchOffsets(coordinator, "flaky", { t: [0] })).topics[0]?.partitions[0]?.committedOffset).toBe(1);
    expect((await deleteGroups(coordinator, ["flaky"])).results).toEqual([{ groupId: "flaky", errorCode: E.NONE }]);
    expect((await coordinator.listGroups(groupRequest(16, 5, { statesFilter: [], typesFilter: [] }))).groups).toEqual(
      [],
    );
  });

  test("a group with hundreds of committed offsets is deleted in several transactions", async () => {
    const { coordinator } = setup();
    const partitions: Record<number, number> = {};
    for (let partition = 0; partition < 300; partition += 1) partitions[partition] = partition;
    await commit(coordinator, "wide", "", -1, { a: partitions, b: partitions });
    expect((await deleteGroups(coordinator, ["wide"])).results).toEqual([{ groupId: "wide", errorCode: E.NONE }]);
    const fetched = await fetchOffsets(coordinator, "wide", null);
    expect(fetched.topics).toEqual([]);
  });
});

describe("OffsetDelete", () => {
  /** A consumer subscription (ConsumerProtocolSubscription v0) to `topics`, with null user data. */
  const subscription = (...topics: string[]): Uint8Array => {
    const bytes: number[] = [0, 0, 0, 0, 0, topics.length];
    for (const topic of topics) bytes.push(0, topic.length, ...new TextEncoder().encode(topic));
    return new Uint8Array([...bytes, 0xff, 0xff, 0xff, 0xff]);
  };
  const offsetDelete = (coordinator: GroupCoordinator, groupId: string, topics: Record<string, number[]>) =>
    coordinator.offsetDelete(
      groupRequest(47, 0, {
        groupId,
        topics: Object.entries(topics).map(([name, partitions]) => ({
          name,
          partitions: partitions.map((partitionIndex) => ({ partitionIndex })),
        })),
      }),
    );
  const committed = async (
    coordinator: GroupCoordinator,
    groupId: string,
    topic: string,
    partitions: number[],
  ): Promise<number[]> =>
    (await fetchOffsets(coordinator, groupId, { [topic]: partitions })).topics[0]?.partitions.map(
      (partition) => partition.committedOffset,
    ) ?? [];

  test("deletes the offsets of topics the group does not consume; refuses the ones its members subscribed to", async () => {
    const { coordinator } = setup();
    const { memberId, generationId } = await stableSingleMember(coordinator, "g", {
      protocols: [{ name: "range", metadata: subscription("orders") }],
    });
    await commit(coordinator, "g", memberId, generationId, { orders: { 0: 5 }, legacy: { 0: 7, 1: 8 } });
    expect(await offsetDelete(coordinator, "g", { orders: [0], legacy: [0, 1, 2] })).toEqual({
      errorCode: E.NONE,
      throttleTimeMs: 0,
      topics: [
        { name: "orders", partitions: [{ partitionIndex: 0, errorCode: E.GROUP_SUBSCRIBED_TO_TOPIC }] },
        { name: "legacy", partitions: [0, 1, 2].map((partitionIndex) => ({ partitionIndex, errorCode: E.NONE })) },
      ],
    });
    expect(await committed(coordinator, "g", "orders", [0])).toEqual([5]);
    expect(await committed(coordinator, "g", "legacy", [0, 1])).toEqual([-1, -1]);
    // Once the member left, the group's own topic can go too.
    coordinator.leaveGroup(groupRequest(13, 1, { groupId: "g", memberId, members: [] }));
    expect((await offsetDelete(coordinator, "g", { orders: [0] })).topics[0]?.partitions[0]?.errorCode).toBe(E.NONE);
    expect(await committed(coordinator, "g", "orders", [0])).toEqual([-1]);
  });

  test("unknown groups, unreadable subscriptions, other protocol types and storage failures", async () => {
    const { coordinator, metadata } = setup();
    expect(await offsetDelete(coordinator, "never", { t: [0] })).toEqual({
      errorCode: E.GROUP_ID_NOT_FOUND,
      throttleTimeMs: 0,
      topics: [],
    });
    expect((await offsetDelete(coordinator, "", { t: [0] })).errorCode).toBe(E.INVALID_GROUP_ID);
    // The default test metadata is not a consumer subscription: every topic counts as subscribed.
    const opaque = await stableSingleMember(coordinator, "opaque");
    await commit(coordinator, "opaque", opaque.memberId, opaque.generationId, { t: { 0: 1 } });
    expect((await offsetDelete(coordinator, "opaque", { t: [0] })).topics[0]?.partitions[0]?.errorCode).toBe(
      E.GROUP_SUBSCRIBED_TO_TOPIC,
    );
    await stableSingleMember(coordinator, "connect", { protocolType: "connect" });
    expect((await offsetDelete(coordinator, "connect", { t: [0] })).errorCode).toBe(E.NON_EMPTY_GROUP);
    await commit(coordinator, "simple", "", -1, { t: { 0: 3 } });
    metadata.faults.add({ op: "txn", mode: "fail-before-apply" });
    expect((await offsetDelete(coordinator, "simple", { t: [0] })).errorCode).toBe(E.COORDINATOR_NOT_AVAILABLE);
    expect(await committed(coordinator, "simple", "t", [0])).toEqual([3]);
    expect((await offsetDelete(coordinator, "simple", { t: [0] })).topics[0]?.partitions[0]?.errorCode).toBe(E.NONE);
  });
});

describe("close", () => {
  test("answers parked requests, cancels every timer and refuses later requests", async () => {
    const { coordinator, clock } = setup({ initialRebalanceDelayMs: 3_000 });
    const completing = await joinNew(coordinator, "other");
    await clock.advance(3_000);
    expect((await completing.joined).errorCode).toBe(E.NONE);
    const parked = await joinNew(coordinator, "g");
    expect(clock.pending).toBeGreaterThan(0);
    await coordinator.close();
    expect((await parked.joined).errorCode).toBe(E.COORDINATOR_NOT_AVAILABLE);
    expect(clock.pending).toBe(0);
    expect((await join(coordinator, "g", "")).errorCode).toBe(E.COORDINATOR_NOT_AVAILABLE);
    expect(commitCodes(await commit(coordinator, "s", "", -1, { t: { 0: 1 } }))).toEqual([E.COORDINATOR_NOT_AVAILABLE]);
    await coordinator.close();
  });
});

describe("handlers", () => {
  test("the broker-facing handlers take the member host from the peer and check partitions against the topic catalog", async () => {
    const { coordinator } = setup();
    const context = {
      peer: "10.1.2.3:50312",
      topics: { lookup: (name: string) => Promise.resolve(name === "t" ? { partitionCount: 1 } : undefined) },
    };
    const first = await coordinator.handlers.JoinGroup.handle(context, groupRequest(11, 3, joinGroupBody("g", "")));
    await coordinator.handlers.SyncGroup.handle(
      context,
      groupRequest(14, 3, {
        groupId: "g",
        generationId: first.generationId,
        memberId: first.memberId,
        groupInstanceId: null,
        protocolType: null,
        protocolName: null,
        assignments: [],
      }),
    );
    const described = await coordinator.handlers.DescribeGroups.handle(
      { peer: "[::1]:9" },
      groupRequest(15, 0, { groups: ["g"], includeAuthorizedOperations: false }),
    );
    expect(described.groups[0]?.members[0]?.clientHost).toBe("/10.1.2.3");
    const committed = await coordinator.handlers.OffsetCommit.handle(
      context,
      groupRequest(8, 2, {
        groupId: "g",
        generationIdOrMemberEpoch: first.generationId,
        memberId: first.memberId,
        groupInstanceId: null,
        retentionTimeMs: -1,
        topics: [
          {
            name: "t",
            partitions: [
              {
                partitionIndex: 0,
                committedOffset: 4,
                committedLeaderEpoch: -1,
                commitTimestamp: -1,
                committedMetadata: "",
              },
            ],
          },
          {
            name: "missing",
            partitions: [
              {
                partitionIndex: 0,
                committedOffset: 4,
                committedLeaderEpoch: -1,
                commitTimestamp: -1,
                committedMetadata: "",
              },
            ],
          },
        ],
      }),
    );
    expect(commitCodes(committed)).toEqual([E.NONE, E.UNKNOWN_TOPIC_OR_PARTITION]);
    expect(
      (
        await coordinator.handlers.Heartbeat.handle(
          context,
          groupRequest(12, 0, {
            groupId: "g",
            generationId: first.generationId,
            memberId: first.memberId,
            groupInstanceId: null,
          }),
        )
      ).errorCode,
    ).toBe(E.NONE);
    expect(coordinator.metrics).toMatchObject({ groups: 1, members: 1, offsetCommits: 1 });
  });
});
