// The in-memory state machine of one classic consumer group (Kafka's GroupMetadata + the group parts of its
// GroupCoordinator): Empty → PreparingRebalance → CompletingRebalance → Stable, with generation fencing, the
// MEMBER_ID_REQUIRED dance of JoinGroup v4+, static members (group.instance.id), the initial rebalance delay,
// join and sync deadlines (rebalance timeout) and per-member session timeouts. JoinGroup and SyncGroup requests
// park as promises that the state machine resolves; every parked request is answered exactly once (on rebalance,
// removal, replacement or `shutdown`). Each member holds at most one session timer and the group at most one join
// and one sync timer, so timers are bounded by the member count. Committed offsets are not here (the coordinator
// stores them); this class only says whether a commit is allowed.
import { randomUUID } from "node:crypto";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { GroupClock, GroupTimer } from "./group-clock.js";
import { EMPTY_BYTES, GroupMember, type JoinOutcome, type MemberProtocol, type SyncOutcome } from "./group-member.js";
import { subscribedTopics } from "./consumer-subscription.js";
import type { GroupSnapshot } from "./group-snapshot.js";
import { selectProtocol } from "./select-protocol.js";

/** Kafka's group states, by the names DescribeGroups and ListGroups report. */
export type GroupState = "Empty" | "PreparingRebalance" | "CompletingRebalance" | "Stable" | "Dead";

/** Limits and delays shared by every group of a coordinator. */
export interface GroupPolicy {
  /** Kafka's group.initial.rebalance.delay.ms: how long an empty group waits for more members before its first generation. */
  readonly initialRebalanceDelayMs: number;
  /** Kafka's group.max.size: members (joined or pending) per group. */
  readonly maxGroupSize: number;
}

/** What the group tells its owner. */
export interface GroupHooks {
  /** The group is Empty with no member, pending member or timer left; the owner may forget it. */
  onIdle(group: ConsumerGroup): void;
  /** Structured event for logs (member joined/removed, rebalance started/completed). */
  onEvent(event: string, fields: Record<string, unknown>): void;
}

/** A JoinGroup request as the state machine sees it. */
export interface JoinInput {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
  readonly protocolType: string;
  readonly protocols: readonly MemberProtocol[];
  /** JoinGroup v4+: a dynamic member without an id gets MEMBER_ID_REQUIRED and must join again. */
  readonly requireKnownMemberId: boolean;
}

/** A SyncGroup request as the state machine sees it. */
export interface SyncInput {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly generationId: number;
  readonly protocolType: string | null;
  readonly protocolName: string | null;
  readonly assignments: readonly { readonly memberId: string; readonly assignment: Uint8Array }[];
}

/** Identifies the sender of a Heartbeat or OffsetCommit. */
export interface MemberRef {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly generationId: number;
}

/** A member named in LeaveGroup. */
export interface LeavingMember {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
}

/** DescribeGroups' view of a group. */
export interface GroupSummary {
  readonly groupId: string;
  readonly state: GroupState;
  readonly protocolType: string;
  readonly protocolName: string;
  readonly members: readonly {
    readonly memberId: string;
    readonly groupInstanceId: string | null;
    readonly clientId: string;
    readonly clientHost: string;
    readonly metadata: Uint8Array;
    readonly assignment: Uint8Array;
  }[];
}

type RebalanceTimer =
  | { readonly kind: "initial"; readonly deadline: number; readonly timer: GroupTimer }
  | { readonly kind: "join"; readonly timer: GroupTimer };

/** One consumer group. Not thread-safe by design: every call runs to completion on the event loop. */
export class ConsumerGroup {
  readonly groupId: string;
  readonly #clock: GroupClock;
  readonly #policy: GroupPolicy;
  readonly #hooks: GroupHooks;
  #state: GroupState = "Empty";
  #generationId = 0;
  #protocolType: string | null = null;
  #protocolName: string | null = null;
  #leaderId: string | null = null;
  readonly #members = new Map<string, GroupMember>();
  /** Member ids handed out with MEMBER_ID_REQUIRED, not yet joined, each with its expiry timer. */
  readonly #pendingMembers = new Map<string, GroupTimer>();
  /** group.instance.id → current member id. */
  readonly #staticMembers = new Map<string, string>();
  /** Members of the current generation that have not sent SyncGroup yet. */
  readonly #pendingSync = new Set<string>();
  #rebalance: RebalanceTimer | undefined;
  #newMemberAdded = false;
  #syncTimer: GroupTimer | undefined;

  constructor(groupId: string, clock: GroupClock, policy: GroupPolicy, hooks: GroupHooks) {
    this.groupId = groupId;
    this.#clock = clock;
    this.#policy = policy;
    this.#hooks = hooks;
  }

  get state(): GroupState {
    return this.#state;
  }

  get generationId(): number {
    return this.#generationId;
  }

  get protocolType(): string | null {
    return this.#protocolType;
  }

  get leaderId(): string | null {
    return this.#leaderId;
  }

  /** Joined members (pending ones excluded), in join order. */
  get memberIds(): readonly string[] {
    return [...this.#members.keys()];
  }

  get pendingMemberCount(): number {
    return this.#pendingMembers.size;
  }

  /** True when nothing is left in the group: Empty, no pending member, no timer. */
  get idle(): boolean {
    return (
      this.#state === "Empty" &&
      this.#members.size === 0 &&
      this.#pendingMembers.size === 0 &&
      this.#rebalance === undefined &&
      this.#syncTimer === undefined
    );
  }

  /**
   * A Stable group as another coordinator would continue it (generation, protocol, leader, members with their
   * assignments); undefined in any other state.
   */
  snapshot(): GroupSnapshot | undefined {
    if (this.#state !== "Stable" || this.#protocolType === null || this.#protocolName === null) return undefined;
    if (this.#leaderId === null) return undefined;
    return {
      generationId: this.#generationId,
      protocolType: this.#protocolType,
      protocolName: this.#protocolName,
      leaderId: this.#leaderId,
      members: [...this.#members.values()].map((member) => ({
        memberId: member.memberId,
        groupInstanceId: member.groupInstanceId,
        clientId: member.clientId,
        clientHost: member.clientHost,
        sessionTimeoutMs: member.sessionTimeoutMs,
        rebalanceTimeoutMs: member.rebalanceTimeoutMs,
        protocols: member.protocols,
        assignment: member.assignment,
      })),
    };
  }

  /**
   * A group continuing `snapshot` on this coordinator: Stable at the snapshot's generation, each member's session
   * starting now (a member that does not heartbeat within its session timeout is removed and the group rebalances).
   */
  static restore(
    groupId: string,
    snapshot: GroupSnapshot,
    clock: GroupClock,
    policy: GroupPolicy,
    hooks: GroupHooks,
  ): ConsumerGroup {
    const group = new ConsumerGroup(groupId, clock, policy, hooks);
    group.#state = "Stable";
    group.#generationId = snapshot.generationId;
    group.#protocolType = snapshot.protocolType;
    group.#protocolName = snapshot.protocolName;
    group.#leaderId = snapshot.leaderId;
    for (const stored of snapshot.members) {
      const member = new GroupMember({ ...stored, protocolType: snapshot.protocolType });
      member.assignment = stored.assignment.slice();
      group.#members.set(member.memberId, member);
      if (member.groupInstanceId !== null) group.#staticMembers.set(member.groupInstanceId, member.memberId);
      group.#scheduleSessionExpiry(member);
    }
    return group;
  }

  // ---- JoinGroup --------------------------------------------------------------------------------------------

  /** Handles a JoinGroup whose session timeout and group id the coordinator already validated. */
  join(input: JoinInput): Promise<JoinOutcome> {
    if (this.#state === "Dead")
      return Promise.resolve(this.#joinError(input.memberId, KafkaErrorCode.COORDINATOR_NOT_AVAILABLE));
    if (!this.#supportsProtocols(input.protocolType, input.protocols)) {
      return Promise.resolve(this.#joinError(input.memberId, KafkaErrorCode.INCONSISTENT_GROUP_PROTOCOL));
    }
    return input.memberId === "" ? this.#joinUnknownMember(input) : this.#joinKnownMember(input);
  }

  #joinUnknownMember(input: JoinInput): Promise<JoinOutcome> {
    if (input.groupInstanceId !== null) {
      const existing = this.#staticMembers.get(input.groupInstanceId);
      const member = existing === undefined ? undefined : this.#members.get(existing);
      if (member !== undefined) return this.#replaceStaticMember(member, input);
    }
    if (this.#members.size + this.#pendingMembers.size >= this.#policy.maxGroupSize) {
      return Promise.resolve(this.#joinError("", KafkaErrorCode.GROUP_MAX_SIZE_REACHED));
    }
    const memberId = `${input.clientId}-${randomUUID()}`;
    if (input.groupInstanceId === null && input.requireKnownMemberId) {
      const timer = this.#clock.schedule(input.sessionTimeoutMs, () => this.#expirePendingMember(memberId));
      this.#pendingMembers.set(memberId, timer);
      return Promise.resolve(this.#joinError(memberId, KafkaErrorCode.MEMBER_ID_REQUIRED));
    }
    return this.#addMemberAndRebalance(memberId, input);
  }

  #joinKnownMember(input: JoinInput): Promise<JoinOutcome> {
    const pendingTimer = this.#pendingMembers.get(input.memberId);
    if (pendingTimer !== undefined) {
      pendingTimer.cancel();
      this.#pendingMembers.delete(input.memberId);
      return this.#addMemberAndRebalance(input.memberId, input);
    }
    if (this.#isFenced(input.memberId, input.groupInstanceId)) {
      return Promise.resolve(this.#joinError(input.memberId, KafkaErrorCode.FENCED_INSTANCE_ID));
    }
    const member = this.#members.get(input.memberId);
    if (member === undefined) return Promise.resolve(this.#joinError(input.memberId, KafkaErrorCode.UNKNOWN_MEMBER_ID));
    return this.#rejoin(member, input);
  }

  /** An existing member joins again: rebalance unless it is a follower rejoining with unchanged protocols. */
  #rejoin(member: GroupMember, input: JoinInput): Promise<JoinOutcome> {
    switch (this.#state) {
      case "PreparingRebalance":
        return this.#updateMemberAndRebalance(member, input);
      case "CompletingRebalance":
        // Same metadata: it probably lost the JoinGroup response; answer with the current generation again.
        if (member.matches(input.protocols)) return Promise.resolve(this.#joinResult(member));
        return this.#updateMemberAndRebalance(member, input);
      case "Stable":
        if (member.memberId === this.#leaderId || !member.matches(input.protocols))
          return this.#updateMemberAndRebalance(member, input);
        return Promise.resolve(this.#joinResult(member));
      default:
        return Promise.resolve(this.#joinError(input.memberId, KafkaErrorCode.UNKNOWN_MEMBER_ID));
    }
  }

  /** A static member rejoined without its member id (a restart): the old id is fenced, the new one takes its place. */
  #replaceStaticMember(old: GroupMember, input: JoinInput): Promise<JoinOutcome> {
    const memberId = `${input.clientId}-${randomUUID()}`;
    const replacement = new GroupMember({
      ...input,
      memberId,
      protocolType: old.protocolType,
      protocols: old.protocols,
    });
    replacement.assignment = old.assignment;
    old.sessionTimer?.cancel();
    old.awaitingJoin?.(this.#joinError(old.memberId, KafkaErrorCode.FENCED_INSTANCE_ID));
    old.awaitingSync?.(this.#syncError(KafkaErrorCode.FENCED_INSTANCE_ID));
    old.awaitingJoin = undefined;
    old.awaitingSync = undefined;
    // Keep the member's position in join order.
    const entries = [...this.#members.entries()].map(([id, member]): [string, GroupMember] =>
      id === old.memberId ? [memberId, replacement] : [id, member],
    );
    this.#members.clear();
    for (const [id, member] of entries) this.#members.set(id, member);
    if (this.#leaderId === old.memberId) this.#leaderId = memberId;
    if (this.#pendingSync.delete(old.memberId)) this.#pendingSync.add(memberId);
    this.#staticMembers.set(input.groupInstanceId ?? "", memberId);
    this.#hooks.onEvent("group member replaced", {
      groupId: this.groupId,
      groupInstanceId: input.groupInstanceId,
      oldMemberId: old.memberId,
      memberId,
    });
    this.#scheduleSessionExpiry(replacement);
    return this.#rejoin(replacement, input);
  }

  #addMemberAndRebalance(memberId: string, input: JoinInput): Promise<JoinOutcome> {
    const member = new GroupMember({ ...input, memberId });
    if (this.#members.size === 0) this.#protocolType = input.protocolType;
    if (this.#state === "PreparingRebalance" && this.#rebalance?.kind === "initial") this.#newMemberAdded = true;
    this.#members.set(memberId, member);
    this.#leaderId ??= memberId;
    if (input.groupInstanceId !== null) this.#staticMembers.set(input.groupInstanceId, memberId);
    const outcome = new Promise<JoinOutcome>((resolve) => {
      member.awaitingJoin = resolve;
    });
    this.#hooks.onEvent("group member added", {
      groupId: this.groupId,
      memberId,
      clientId: input.clientId,
      clientHost: input.clientHost,
    });
    this.#maybePrepareRebalance(`member ${memberId} joined`);
    this.#tryCompleteJoin();
    return outcome;
  }

  #updateMemberAndRebalance(member: GroupMember, input: JoinInput): Promise<JoinOutcome> {
    member.protocols = input.protocols.map((protocol) => ({
      name: protocol.name,
      metadata: protocol.metadata.slice(),
    }));
    member.sessionTimeoutMs = input.sessionTimeoutMs;
    member.rebalanceTimeoutMs = input.rebalanceTimeoutMs;
    member.clientId = input.clientId;
    member.clientHost = input.clientHost;
    // A join still parked for this member (its connection is gone or it gave up) is answered now, never dropped.
    member.awaitingJoin?.(this.#joinError(member.memberId, KafkaErrorCode.REBALANCE_IN_PROGRESS));
    const outcome = new Promise<JoinOutcome>((resolve) => {
      member.awaitingJoin = resolve;
    });
    this.#maybePrepareRebalance(`member ${member.memberId} rejoined`);
    this.#tryCompleteJoin();
    return outcome;
  }

  // ---- SyncGroup --------------------------------------------------------------------------------------------

  sync(input: SyncInput): Promise<SyncOutcome> {
    if (this.#isFenced(input.memberId, input.groupInstanceId))
      return Promise.resolve(this.#syncError(KafkaErrorCode.FENCED_INSTANCE_ID));
    const member = this.#members.get(input.memberId);
    if (member === undefined) return Promise.resolve(this.#syncError(KafkaErrorCode.UNKNOWN_MEMBER_ID));
    if (input.generationId !== this.#generationId)
      return Promise.resolve(this.#syncError(KafkaErrorCode.ILLEGAL_GENERATION));
    if (
      (input.protocolType !== null && input.protocolType !== this.#protocolType) ||
      (input.protocolName !== null && input.protocolName !== this.#protocolName)
    ) {
      return Promise.resolve(this.#syncError(KafkaErrorCode.INCONSISTENT_GROUP_PROTOCOL));
    }
    switch (this.#state) {
      case "PreparingRebalance":
        return Promise.resolve(this.#syncError(KafkaErrorCode.REBALANCE_IN_PROGRESS));
      case "CompletingRebalance": {
        this.#pendingSync.delete(member.memberId);
        this.#scheduleSessionExpiry(member);
        member.awaitingSync?.(this.#syncError(KafkaErrorCode.REBALANCE_IN_PROGRESS));
        const outcome = new Promise<SyncOutcome>((resolve) => {
          member.awaitingSync = resolve;
        });
        if (member.memberId === this.#leaderId) this.#applyAssignments(input.assignments);
        return outcome;
      }
      case "Stable":
        this.#pendingSync.delete(member.memberId);
        this.#scheduleSessionExpiry(member);
        return Promise.resolve(this.#syncSuccess(member.assignment));
      default:
        return Promise.resolve(this.#syncError(KafkaErrorCode.UNKNOWN_MEMBER_ID));
    }
  }

  /** The leader's assignments: every member gets its bytes (empty when the leader named it not), the group turns Stable. */
  #applyAssignments(assignments: SyncInput["assignments"]): void {
    const byMember = new Map<string, Uint8Array>();
    for (const entry of assignments) byMember.set(entry.memberId, entry.assignment);
    for (const member of this.#members.values()) {
      member.assignment = byMember.get(member.memberId)?.slice() ?? EMPTY_BYTES;
    }
    this.#state = "Stable";
    this.#hooks.onEvent("group stable", {
      groupId: this.groupId,
      generationId: this.#generationId,
      protocolName: this.#protocolName,
      members: this.#members.size,
    });
    for (const member of this.#members.values()) {
      const resolve = member.awaitingSync;
      member.awaitingSync = undefined;
      resolve?.(this.#syncSuccess(member.assignment));
    }
    if (this.#pendingSync.size === 0) this.#cancelSyncTimer();
  }

  // ---- Heartbeat, OffsetCommit checks, LeaveGroup --------------------------------------------------------------

  heartbeat(request: MemberRef): number {
    if (this.#isFenced(request.memberId, request.groupInstanceId)) return KafkaErrorCode.FENCED_INSTANCE_ID;
    const member = this.#members.get(request.memberId);
    if (member === undefined) return KafkaErrorCode.UNKNOWN_MEMBER_ID;
    if (request.generationId !== this.#generationId) return KafkaErrorCode.ILLEGAL_GENERATION;
    switch (this.#state) {
      case "PreparingRebalance":
        this.#scheduleSessionExpiry(member);
        return KafkaErrorCode.REBALANCE_IN_PROGRESS;
      case "CompletingRebalance":
      case "Stable":
        this.#scheduleSessionExpiry(member);
        return KafkaErrorCode.NONE;
      default:
        return KafkaErrorCode.UNKNOWN_MEMBER_ID;
    }
  }

  /**
   * Whether `request` may commit offsets now (Kafka's doCommitOffsets checks): a simple commit (generation < 0)
   * only to an Empty group; group members only with their current generation and not while the leader's
   * assignment is outstanding. A valid member's commit counts as a heartbeat.
   */
  checkOffsetCommit(request: MemberRef): number {
    if (this.#state === "Dead") return KafkaErrorCode.COORDINATOR_NOT_AVAILABLE;
    if (this.#isFenced(request.memberId, request.groupInstanceId)) return KafkaErrorCode.FENCED_INSTANCE_ID;
    if (request.generationId < 0 && this.#state === "Empty") return KafkaErrorCode.NONE;
    if (this.#state === "CompletingRebalance") return KafkaErrorCode.REBALANCE_IN_PROGRESS;
    const member = this.#members.get(request.memberId);
    if (member === undefined) return KafkaErrorCode.UNKNOWN_MEMBER_ID;
    if (request.generationId !== this.#generationId) return KafkaErrorCode.ILLEGAL_GENERATION;
    this.#scheduleSessionExpiry(member);
    return KafkaErrorCode.NONE;
  }

  /** Removes the named members; one error code per member (UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID or NONE). */
  leave(members: readonly LeavingMember[]): number[] {
    const results = members.map((leaving) => {
      let memberId = leaving.memberId;
      if (leaving.groupInstanceId !== null) {
        const current = this.#staticMembers.get(leaving.groupInstanceId);
        if (current === undefined) return KafkaErrorCode.UNKNOWN_MEMBER_ID;
        if (memberId !== "" && memberId !== current) return KafkaErrorCode.FENCED_INSTANCE_ID;
        memberId = current;
      }
      const pending = this.#pendingMembers.get(memberId);
      if (pending !== undefined) {
        pending.cancel();
        this.#pendingMembers.delete(memberId);
        this.#tryCompleteJoin();
        return KafkaErrorCode.NONE;
      }
      const member = this.#members.get(memberId);
      if (member === undefined) return KafkaErrorCode.UNKNOWN_MEMBER_ID;
      this.#removeMemberAndUpdateGroup(member, "left the group");
      return KafkaErrorCode.NONE;
    });
    this.#checkIdle();
    return results;
  }

  // ---- Describe, shutdown ----------------------------------------------------------------------------------

  summary(): GroupSummary {
    const stable = this.#state === "Stable";
    return {
      groupId: this.groupId,
      state: this.#state,
      protocolType: this.#protocolType ?? "",
      protocolName: stable ? (this.#protocolName ?? "") : "",
      members: [...this.#members.values()].map((member) => ({
        memberId: member.memberId,
        groupInstanceId: member.groupInstanceId,
        clientId: member.clientId,
        clientHost: member.clientHost,
        metadata: stable ? member.metadataFor(this.#protocolName) : EMPTY_BYTES,
        assignment: stable ? member.assignment : EMPTY_BYTES,
      })),
    };
  }

  /**
   * The topics the members subscribed to (consumer protocol metadata of the selected protocol, or of every protocol
   * a member offered while none is selected), or undefined when some member's subscription cannot be read.
   */
  subscribedTopics(): Set<string> | undefined {
    const topics = new Set<string>();
    for (const member of this.#members.values()) {
      const offered =
        this.#protocolName === null
          ? member.protocols
          : member.protocols.filter((protocol) => protocol.name === this.#protocolName);
      for (const protocol of offered) {
        const subscribed = subscribedTopics(protocol.metadata);
        if (subscribed === undefined) return undefined;
        for (const topic of subscribed) topics.add(topic);
      }
    }
    return topics;
  }

  /** Answers every parked request with `errorCode`, cancels every timer and marks the group Dead. Idempotent. */
  shutdown(errorCode: number): void {
    this.#rebalance?.timer.cancel();
    this.#rebalance = undefined;
    this.#cancelSyncTimer();
    for (const timer of this.#pendingMembers.values()) timer.cancel();
    this.#pendingMembers.clear();
    for (const member of this.#members.values()) {
      member.sessionTimer?.cancel();
      member.sessionTimer = undefined;
      member.awaitingJoin?.(this.#joinError(member.memberId, errorCode));
      member.awaitingSync?.(this.#syncError(errorCode));
      member.awaitingJoin = undefined;
      member.awaitingSync = undefined;
    }
    this.#members.clear();
    this.#staticMembers.clear();
    this.#pendingSync.clear();
    this.#state = "Dead";
  }

  // ---- Rebalance machinery -----------------------------------------------------------------------------------

  #maybePrepareRebalance(reason: string): void {
    if (this.#state === "Stable" || this.#state === "CompletingRebalance" || this.#state === "Empty")
      this.#prepareRebalance(reason);
  }

  #prepareRebalance(reason: string): void {
    if (this.#state === "CompletingRebalance") {
      for (const member of this.#members.values()) {
        member.assignment = EMPTY_BYTES;
        member.awaitingSync?.(this.#syncError(KafkaErrorCode.REBALANCE_IN_PROGRESS));
        member.awaitingSync = undefined;
      }
    }
    this.#cancelSyncTimer();
    this.#pendingSync.clear();
    const initial = this.#state === "Empty";
    this.#state = "PreparingRebalance";
    const rebalanceTimeoutMs = this.#rebalanceTimeoutMs();
    this.#hooks.onEvent("group rebalance started", {
      groupId: this.groupId,
      generationId: this.#generationId,
      reason,
      members: this.#members.size,
    });
    if (initial && this.#policy.initialRebalanceDelayMs > 0) {
      this.#newMemberAdded = false;
      const delay = Math.min(this.#policy.initialRebalanceDelayMs, rebalanceTimeoutMs);
      this.#rebalance = {
        kind: "initial",
        deadline: this.#clock.now() + rebalanceTimeoutMs,
        timer: this.#clock.schedule(delay, () => this.#onInitialDelay()),
      };
    } else {
      this.#rebalance = { kind: "join", timer: this.#clock.schedule(rebalanceTimeoutMs, () => this.#completeJoin()) };
    }
  }

  /** The initial delay ran out: wait once more while members keep arriving and the rebalance timeout allows. */
  #onInitialDelay(): void {
    if (this.#rebalance?.kind !== "initial") return;
    const remaining = this.#rebalance.deadline - this.#clock.now();
    if (this.#newMemberAdded && remaining > 0) {
      this.#newMemberAdded = false;
      const deadline = this.#rebalance.deadline;
      const delay = Math.min(this.#policy.initialRebalanceDelayMs, remaining);
      this.#rebalance = { kind: "initial", deadline, timer: this.#clock.schedule(delay, () => this.#onInitialDelay()) };
      return;
    }
    this.#completeJoin();
  }

  #tryCompleteJoin(): void {
    if (this.#state !== "PreparingRebalance" || this.#rebalance?.kind === "initial") return;
    if (this.#pendingMembers.size > 0) return;
    for (const member of this.#members.values()) if (member.awaitingJoin === undefined) return;
    this.#completeJoin();
  }

  #completeJoin(): void {
    if (this.#state !== "PreparingRebalance") return;
    this.#rebalance?.timer.cancel();
    this.#rebalance = undefined;
    for (const member of [...this.#members.values()]) {
      if (member.awaitingJoin === undefined) this.#removeMember(member, "did not rejoin before the rebalance timeout");
    }
    this.#generationId += 1;
    if (this.#members.size === 0) {
      this.#state = "Empty";
      this.#protocolName = null;
      this.#leaderId = null;
      this.#hooks.onEvent("group empty", { groupId: this.groupId, generationId: this.#generationId });
      this.#checkIdle();
      return;
    }
    this.#protocolName = selectProtocol(
      [...this.#members.values()].map((member) => member.protocols.map((protocol) => protocol.name)),
    );
    if (this.#leaderId === null || !this.#members.has(this.#leaderId))
      this.#leaderId = this.#members.keys().next().value ?? null;
    this.#state = "CompletingRebalance";
    this.#hooks.onEvent("group generation completed", {
      groupId: this.groupId,
      generationId: this.#generationId,
      protocolName: this.#protocolName,
      leader: this.#leaderId,
      members: this.#members.size,
    });
    for (const member of this.#members.values()) {
      this.#pendingSync.add(member.memberId);
      const resolve = member.awaitingJoin;
      member.awaitingJoin = undefined;
      resolve?.(this.#joinResult(member));
      this.#scheduleSessionExpiry(member);
    }
    const generation = this.#generationId;
    this.#syncTimer = this.#clock.schedule(this.#rebalanceTimeoutMs(), () => this.#onSyncTimeout(generation));
  }

  /** Members of `generation` that never sent SyncGroup are removed; the rest rebalance. */
  #onSyncTimeout(generation: number): void {
    this.#syncTimer = undefined;
    if (generation !== this.#generationId || (this.#state !== "CompletingRebalance" && this.#state !== "Stable"))
      return;
    const laggards = [...this.#pendingSync].map((id) => this.#members.get(id)).filter((member) => member !== undefined);
    this.#pendingSync.clear();
    for (const member of laggards)
      this.#removeMemberAndUpdateGroup(member, "did not send SyncGroup before the rebalance timeout");
    this.#checkIdle();
  }

  #removeMemberAndUpdateGroup(member: GroupMember, reason: string): void {
    this.#removeMember(member, reason);
    switch (this.#state) {
      case "Stable":
      case "CompletingRebalance":
        this.#prepareRebalance(`member ${member.memberId} ${reason}`);
        this.#tryCompleteJoin();
        break;
      case "PreparingRebalance":
        this.#tryCompleteJoin();
        break;
      default:
        break;
    }
  }

  #removeMember(member: GroupMember, reason: string): void {
    member.sessionTimer?.cancel();
    member.sessionTimer = undefined;
    this.#members.delete(member.memberId);
    this.#pendingSync.delete(member.memberId);
    if (member.groupInstanceId !== null && this.#staticMembers.get(member.groupInstanceId) === member.memberId) {
      this.#staticMembers.delete(member.groupInstanceId);
    }
    member.awaitingJoin?.(this.#joinError(member.memberId, KafkaErrorCode.UNKNOWN_MEMBER_ID));
    member.awaitingSync?.(this.#syncError(KafkaErrorCode.UNKNOWN_MEMBER_ID));
    member.awaitingJoin = undefined;
    member.awaitingSync = undefined;
    if (this.#leaderId === member.memberId) {
      const next =
        [...this.#members.values()].find((candidate) => candidate.awaitingJoin !== undefined) ??
        this.#members.values().next().value;
      this.#leaderId = next?.memberId ?? null;
    }
    this.#hooks.onEvent("group member removed", { groupId: this.groupId, memberId: member.memberId, reason });
  }

  #scheduleSessionExpiry(member: GroupMember): void {
    member.sessionTimer?.cancel();
    member.sessionTimer = this.#clock.schedule(member.sessionTimeoutMs, () => this.#onSessionExpired(member));
  }

  #onSessionExpired(member: GroupMember): void {
    member.sessionTimer = undefined;
    if (this.#members.get(member.memberId) !== member) return;
    // A member parked in JoinGroup or SyncGroup is alive: the rebalance or sync deadline bounds its wait.
    if (member.awaitingJoin !== undefined || member.awaitingSync !== undefined) {
      this.#scheduleSessionExpiry(member);
      return;
    }
    this.#removeMemberAndUpdateGroup(member, `session timed out after ${String(member.sessionTimeoutMs)} ms`);
    this.#checkIdle();
  }

  #expirePendingMember(memberId: string): void {
    if (!this.#pendingMembers.delete(memberId)) return;
    this.#hooks.onEvent("group pending member expired", { groupId: this.groupId, memberId });
    this.#tryCompleteJoin();
    this.#checkIdle();
  }

  #cancelSyncTimer(): void {
    this.#syncTimer?.cancel();
    this.#syncTimer = undefined;
  }

  #checkIdle(): void {
    if (this.idle) this.#hooks.onIdle(this);
  }

  // ---- Helpers -------------------------------------------------------------------------------------------------

  #rebalanceTimeoutMs(): number {
    let timeout = 0;
    for (const member of this.#members.values()) timeout = Math.max(timeout, member.rebalanceTimeoutMs);
    return timeout;
  }

  #supportsProtocols(protocolType: string, protocols: readonly MemberProtocol[]): boolean {
    if (this.#members.size === 0) return protocolType !== "" && protocols.length > 0;
    if (protocolType !== this.#protocolType) return false;
    return protocols.some((protocol) =>
      [...this.#members.values()].every((member) => member.protocols.some((own) => own.name === protocol.name)),
    );
  }

  #isFenced(memberId: string, groupInstanceId: string | null): boolean {
    if (groupInstanceId === null) return false;
    const current = this.#staticMembers.get(groupInstanceId);
    return current !== undefined && current !== memberId;
  }

  #joinResult(member: GroupMember): JoinOutcome {
    const isLeader = member.memberId === this.#leaderId;
    return {
      errorCode: KafkaErrorCode.NONE,
      generationId: this.#generationId,
      protocolType: this.#protocolType,
      protocolName: this.#protocolName,
      leader: this.#leaderId ?? "",
      memberId: member.memberId,
      members: isLeader
        ? [...this.#members.values()].map((each) => ({
            memberId: each.memberId,
            groupInstanceId: each.groupInstanceId,
            metadata: each.metadataFor(this.#protocolName),
          }))
        : [],
    };
  }

  #joinError(memberId: string, errorCode: number): JoinOutcome {
    return { errorCode, generationId: -1, protocolType: null, protocolName: null, leader: "", memberId, members: [] };
  }

  #syncSuccess(assignment: Uint8Array): SyncOutcome {
    return {
      errorCode: KafkaErrorCode.NONE,
      protocolType: this.#protocolType,
      protocolName: this.#protocolName,
      assignment,
    };
  }

  #syncError(errorCode: number): SyncOutcome {
    return { errorCode, protocolType: null, protocolName: null, assignment: EMPTY_BYTES };
  }
}
