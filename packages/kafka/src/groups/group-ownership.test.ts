import { InMemoryMetadataStore } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { createGroupCoordinator } from "./group-coordinator.js";
import type { CoordinatorEndpoint, GroupOwnership } from "./group-ownership.js";
import { groupRequest, joinGroupBody } from "./group-requests.js";
import { ManualGroupClock } from "./manual-group-clock.js";

const CONTEXT = { peer: "127.0.0.1:50000" };
const OTHER: CoordinatorEndpoint = { nodeId: 2, host: "other.test", port: 29092 };
const SELF: CoordinatorEndpoint = { nodeId: 7, host: "broker.test", port: 19092 };

/** Groups named "mine-*" belong to this broker (claimable), "theirs-*" to broker 2; "orphan" to nobody. */
class TestOwnership implements GroupOwnership {
  readonly held = new Set<string>();
  readonly claims: string[] = [];

  coordinatorOf(groupId: string): CoordinatorEndpoint | undefined {
    if (groupId === "orphan") return undefined;
    return groupId.startsWith("mine-") ? SELF : OTHER;
  }

  holdsGroup(groupId: string): boolean {
    return this.held.has(groupId);
  }

  claimGroup(groupId: string): Promise<boolean> {
    this.claims.push(groupId);
    if (groupId.startsWith("mine-")) this.held.add(groupId);
    return Promise.resolve(this.held.has(groupId));
  }
}

function setup(initialRebalanceDelayMs = 0) {
  const ownership = new TestOwnership();
  const clock = new ManualGroupClock();
  const coordinator = createGroupCoordinator({
    metadata: new InMemoryMetadataStore(),
    cluster: "test",
    nodeId: SELF.nodeId,
    host: SELF.host,
    port: SELF.port,
    clock,
    initialRebalanceDelayMs,
    minSessionTimeoutMs: 1_000,
    ownership,
  });
  return { ownership, clock, coordinator };
}

function joinRequest(groupId: string, memberId: string) {
  return groupRequest(11, 5, joinGroupBody(groupId, memberId, {}));
}

describe("GroupCoordinator with shared group ownership", () => {
  test("FindCoordinator answers each group's owner, or COORDINATOR_NOT_AVAILABLE while there is none", () => {
    const { coordinator } = setup();
    const v4 = coordinator.findCoordinator(
      groupRequest(10, 4, { key: "", keyType: 0, coordinatorKeys: ["mine-a", "theirs-b", "orphan"] }),
    );
    expect(
      v4.coordinators.map(({ key, errorCode, nodeId, host, port }) => ({ key, errorCode, nodeId, host, port })),
    ).toEqual([
      { key: "mine-a", errorCode: KafkaErrorCode.NONE, ...SELF },
      { key: "theirs-b", errorCode: KafkaErrorCode.NONE, ...OTHER },
      { key: "orphan", errorCode: KafkaErrorCode.COORDINATOR_NOT_AVAILABLE, nodeId: -1, host: "", port: -1 },
    ]);
    const v1 = coordinator.findCoordinator(groupRequest(10, 1, { key: "theirs-b", keyType: 0, coordinatorKeys: [] }));
    expect([v1.errorCode, v1.nodeId, v1.host, v1.port]).toEqual([
      KafkaErrorCode.NONE,
      OTHER.nodeId,
      OTHER.host,
      OTHER.port,
    ]);
  });

  test("group requests claim the group first; another broker's group answers NOT_COORDINATOR", async () => {
    const { coordinator, ownership } = setup();
    const theirs = await coordinator.handlers.JoinGroup.handle(CONTEXT, joinRequest("theirs-b", ""));
    expect(theirs.errorCode).toBe(KafkaErrorCode.NOT_COORDINATOR);
    const heartbeat = await coordinator.handlers.Heartbeat.handle(
      CONTEXT,
      groupRequest(12, 3, { groupId: "theirs-b", generationId: 1, memberId: "m", groupInstanceId: null }),
    );
    expect(heartbeat.errorCode).toBe(KafkaErrorCode.NOT_COORDINATOR);
    const mine = await coordinator.handlers.JoinGroup.handle(CONTEXT, joinRequest("mine-a", ""));
    expect(mine.errorCode).toBe(KafkaErrorCode.MEMBER_ID_REQUIRED);
    expect(ownership.claims).toEqual(["theirs-b", "theirs-b", "mine-a"]);
  });

  test("releasing a group answers its parked JoinGroup NOT_COORDINATOR and forgets its members", async () => {
    const { coordinator, ownership } = setup(5_000);
    const first = await coordinator.handlers.JoinGroup.handle(CONTEXT, joinRequest("mine-a", ""));
    const parked = coordinator.handlers.JoinGroup.handle(CONTEXT, joinRequest("mine-a", first.memberId));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The member joined and waits for the rebalance (the clock never reaches the initial delay).
    expect(coordinator.group("mine-a")?.memberIds).toEqual([first.memberId]);
    ownership.held.delete("mine-a");
    coordinator.releaseGroup("mine-a");
    expect((await parked).errorCode).toBe(KafkaErrorCode.NOT_COORDINATOR);
    expect(coordinator.group("mine-a")).toBeUndefined();
  });
});
