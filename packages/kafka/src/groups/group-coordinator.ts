// The classic consumer-group coordinator of one broker: FindCoordinator (this node coordinates every group, or, with
// group ownership shared among brokers, each group's owner; a group this broker does not hold answers NOT_COORDINATOR),
// JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit, OffsetFetch, OffsetDelete, DescribeGroups, ListGroups and
// DeleteGroups.
// Membership lives in memory (ConsumerGroup, one per active group; a restart forces a rebalance); committed
// offsets live in the MetadataStore (CommittedOffsetStore) and survive restarts. With shared ownership, each group's
// last Stable membership is stored too (GroupSnapshotStore), and a coordinator that takes a group over continues
// its generation. Each method takes a decoded request of its API and returns the response body for that request's
// version; storage failures become COORDINATOR_NOT_AVAILABLE (retriable) here, once. It does not read streams; the broker's topic catalog, when
// the request context carries one, turns commits to unknown partitions into UNKNOWN_TOPIC_OR_PARTITION.
import { NereusError, type MetadataStore } from "@nereus/core";
import type { KafkaRequest } from "../protocol/decode-request.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { CoordinatorKeyType } from "../protocol/apis/find-coordinator/find-coordinator-request.js";
import type { ResponseBody } from "../protocol/supported-apis.js";
import { type CommittedOffset } from "./committed-offset-codec.js";
import { CommittedOffsetStore, type GroupOffsets, type OffsetToCommit } from "./committed-offset-store.js";
import { ConsumerGroup, type GroupHooks, type GroupState, type GroupSummary } from "./consumer-group.js";
import { type GroupClock, systemGroupClock } from "./group-clock.js";
import type { JoinOutcome, SyncOutcome } from "./group-member.js";
import type { GroupOwnership } from "./group-ownership.js";
import { GroupSnapshotStore } from "./group-snapshot-store.js";

/** The request of API key `K`. */
export type RequestOf<K extends KafkaRequest["apiKey"]> = Extract<KafkaRequest, { apiKey: K }>;

/** Read access to the broker's topics (structurally the broker's TopicCatalog). */
export interface GroupTopicLookup {
  lookup(name: string, signal?: AbortSignal): Promise<{ readonly partitionCount: number } | undefined>;
}

/** Who sent a request and what the broker lends to answer it. */
export interface GroupClient {
  /** The peer address (DescribeGroups reports it per member), e.g. "127.0.0.1:50312". */
  readonly clientHost: string;
  /** When present, OffsetCommit refuses partitions the catalog does not know. */
  readonly topics?: GroupTopicLookup;
  /** Aborted when the connection closes: offset writes stop waiting. */
  readonly signal?: AbortSignal;
}

/** Receives one structured event per line-worthy happening (rebalances, joins, removals). */
export interface GroupCoordinatorLogger {
  info(event: string, fields: Record<string, unknown>): void;
  warn(event: string, fields: Record<string, unknown>): void;
}

export interface GroupCoordinatorOptions {
  readonly metadata: MetadataStore;
  readonly cluster: string;
  /** This broker, which coordinates every group. */
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
  readonly clock?: GroupClock;
  /** Kafka's group.min.session.timeout.ms (default 6,000). */
  readonly minSessionTimeoutMs?: number;
  /** Kafka's group.max.session.timeout.ms (default 1,800,000). */
  readonly maxSessionTimeoutMs?: number;
  /** Kafka's group.initial.rebalance.delay.ms (default 3,000). */
  readonly initialRebalanceDelayMs?: number;
  /** Kafka's group.max.size (default 1,000). */
  readonly maxGroupSize?: number;
  /** Kafka's offset.metadata.max.bytes (default 4,096 UTF-8 bytes). */
  readonly maxOffsetMetadataBytes?: number;
  readonly logger?: GroupCoordinatorLogger;
  /** Group ownership shared with other brokers (default: this broker coordinates every group). */
  readonly ownership?: GroupOwnership;
}

/** The part of the broker's request context the group handlers use (the broker's RequestContext fits). */
export interface GroupRequestContext {
  /** The peer as the listener describes it, e.g. "127.0.0.1:53122". */
  readonly peer: string;
  readonly topics?: GroupTopicLookup;
  readonly signal?: AbortSignal;
  /** This broker's address on the connection's listener (FindCoordinator answers it). */
  readonly broker?: { readonly host: string; readonly port: number };
  /** The connection's listener (FindCoordinator names other brokers by their address on it). */
  readonly transport?: { readonly listenerName: string };
}

/** Answers one group API (structurally the broker's KafkaApiHandler of that API). */
export interface GroupApiHandler<K extends KafkaRequest["apiKey"]> {
  handle(context: GroupRequestContext, request: RequestOf<K>): Promise<ResponseBody<K>>;
}

/** The handlers to pass to the broker as `groupHandlers`. */
export interface GroupApiHandlers {
  readonly FindCoordinator: GroupApiHandler<10>;
  readonly JoinGroup: GroupApiHandler<11>;
  readonly SyncGroup: GroupApiHandler<14>;
  readonly Heartbeat: GroupApiHandler<12>;
  readonly LeaveGroup: GroupApiHandler<13>;
  readonly OffsetCommit: GroupApiHandler<8>;
  readonly OffsetFetch: GroupApiHandler<9>;
  readonly DescribeGroups: GroupApiHandler<15>;
  readonly ListGroups: GroupApiHandler<16>;
  readonly DeleteGroups: GroupApiHandler<42>;
  readonly OffsetDelete: GroupApiHandler<47>;
}

/** A group as {@link GroupCoordinator.listGroupStates} lists it. */
export interface GroupListing {
  readonly groupId: string;
  readonly protocolType: string;
  readonly state: GroupState;
  /** Members in this coordinator's memory (0 for a group known only from its stored offsets). */
  readonly members: number;
}

/** Counters for /metrics. */
export interface GroupCoordinatorMetrics {
  readonly groups: number;
  readonly members: number;
  readonly rebalances: number;
  readonly membersRemoved: number;
  readonly offsetCommits: number;
}

const ENCODER = new TextEncoder();

/** See the module comment. Create with {@link createGroupCoordinator}. */
export class GroupCoordinator implements AsyncDisposable {
  readonly #options: GroupCoordinatorOptions;
  readonly #clock: GroupClock;
  readonly #offsets: CommittedOffsetStore;
  readonly #groups = new Map<string, ConsumerGroup>();
  /** With shared ownership: the stored Stable memberships, and the held groups already brought back from them. */
  readonly #snapshots: GroupSnapshotStore | undefined;
  readonly #restored = new Set<string>();
  readonly #restoring = new Map<string, Promise<void>>();
  /** Per group, the tail of its offset writes: commits of one group apply in arrival order. */
  readonly #commitTails = new Map<string, Promise<unknown>>();
  readonly #minSessionTimeoutMs: number;
  readonly #maxSessionTimeoutMs: number;
  readonly #maxOffsetMetadataBytes: number;
  readonly #policy: { initialRebalanceDelayMs: number; maxGroupSize: number };
  #closed = false;
  #rebalances = 0;
  #membersRemoved = 0;
  #offsetCommits = 0;

  constructor(options: GroupCoordinatorOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemGroupClock;
    this.#offsets = new CommittedOffsetStore(options.metadata, options.cluster);
    this.#snapshots =
      options.ownership === undefined
        ? undefined
        : new GroupSnapshotStore(options.metadata, options.cluster, options.logger);
    this.#minSessionTimeoutMs = options.minSessionTimeoutMs ?? 6_000;
    this.#maxSessionTimeoutMs = options.maxSessionTimeoutMs ?? 1_800_000;
    this.#maxOffsetMetadataBytes = options.maxOffsetMetadataBytes ?? 4_096;
    this.#policy = {
      initialRebalanceDelayMs: options.initialRebalanceDelayMs ?? 3_000,
      maxGroupSize: options.maxGroupSize ?? 1_000,
    };
  }

  /** One handler per group API, for the broker's `groupHandlers`. */
  readonly handlers: GroupApiHandlers = {
    FindCoordinator: { handle: (context, request) => Promise.resolve(this.findCoordinator(request, context)) },
    JoinGroup: {
      handle: (context, request) =>
        this.#claimed([request.body.groupId], () => this.joinGroup(request, clientOf(context))),
    },
    SyncGroup: { handle: (_context, request) => this.#claimed([request.body.groupId], () => this.syncGroup(request)) },
    Heartbeat: { handle: (_context, request) => this.#claimed([request.body.groupId], () => this.heartbeat(request)) },
    LeaveGroup: {
      handle: (_context, request) => this.#claimed([request.body.groupId], () => this.leaveGroup(request)),
    },
    OffsetCommit: {
      handle: (context, request) =>
        this.#claimed([request.body.groupId], () => this.offsetCommit(request, clientOf(context))),
    },
    OffsetFetch: {
      handle: (_context, request) =>
        this.#claimed(
          request.apiVersion >= 8 ? request.body.groups.map((group) => group.groupId) : [request.body.groupId],
          () => this.offsetFetch(request),
        ),
    },
    DescribeGroups: {
      handle: (_context, request) => this.#claimed(request.body.groups, () => this.describeGroups(request)),
    },
    ListGroups: { handle: (_context, request) => this.listGroups(request) },
    DeleteGroups: {
      handle: (_context, request) => this.#claimed(request.body.groupsNames, () => this.deleteGroups(request)),
    },
    OffsetDelete: {
      handle: (_context, request) => this.#claimed([request.body.groupId], () => this.offsetDelete(request)),
    },
  };

  /** Claims the groups this broker coordinates (with shared ownership), then answers. */
  async #claimed<T>(groupIds: readonly string[], answer: () => T | Promise<T>): Promise<T> {
    const ownership = this.#options.ownership;
    if (ownership !== undefined) {
      await Promise.all(groupIds.map((groupId) => ownership.claimGroup(groupId)));
      await Promise.all(groupIds.map((groupId) => this.#restore(ownership, groupId)));
    }
    return answer();
  }

  /** Brings a held group's stored Stable membership into memory, once per claim (a no-op for a group in memory). */
  #restore(ownership: GroupOwnership, groupId: string): Promise<void> {
    const snapshots = this.#snapshots;
    if (snapshots === undefined || this.#restored.has(groupId) || !ownership.holdsGroup(groupId))
      return Promise.resolve();
    let restoring = this.#restoring.get(groupId);
    if (restoring === undefined) {
      restoring = snapshots.load(groupId).then((snapshot) => {
        this.#restoring.delete(groupId);
        if (this.#closed || !ownership.holdsGroup(groupId)) return;
        this.#restored.add(groupId);
        if (snapshot === undefined || this.#groups.has(groupId)) return;
        const group = ConsumerGroup.restore(groupId, snapshot, this.#clock, this.#policy, this.#hooksOf(groupId));
        this.#groups.set(groupId, group);
        this.#options.logger?.info("group taken over", { groupId, generationId: snapshot.generationId });
      });
      this.#restoring.set(groupId, restoring);
    }
    return restoring;
  }

  /** Stores the group's membership when it turns Stable, forgets it when it turns Empty (shared ownership only). */
  #storeSnapshot(groupId: string): void {
    const ownership = this.#options.ownership;
    if (this.#snapshots === undefined || ownership === undefined || !ownership.holdsGroup(groupId)) return;
    void this.#snapshots.save(groupId, this.#groups.get(groupId)?.snapshot());
  }

  /**
   * Why a request about `groupId` is refused before anything else: COORDINATOR_NOT_AVAILABLE once closed,
   * NOT_COORDINATOR for a (named) group another broker coordinates; undefined when it may be served.
   */
  #refusal(groupId: string): number | undefined {
    if (this.#closed) return KafkaErrorCode.COORDINATOR_NOT_AVAILABLE;
    const ownership = this.#options.ownership;
    if (ownership !== undefined && groupId !== "" && !ownership.holdsGroup(groupId))
      return KafkaErrorCode.NOT_COORDINATOR;
    return undefined;
  }

  /**
   * Drops the in-memory state of a group another broker coordinates now: parked JoinGroup/SyncGroup requests are
   * answered NOT_COORDINATOR, and its members rejoin on the new coordinator. Committed offsets stay in metadata.
   */
  releaseGroup(groupId: string): void {
    const group = this.#groups.get(groupId);
    this.#restored.delete(groupId);
    if (group === undefined) return;
    this.#groups.delete(groupId);
    group.shutdown(KafkaErrorCode.NOT_COORDINATOR);
  }

  get metrics(): GroupCoordinatorMetrics {
    let members = 0;
    for (const group of this.#groups.values()) members += group.memberIds.length;
    return {
      groups: this.#groups.size,
      members,
      rebalances: this.#rebalances,
      membersRemoved: this.#membersRemoved,
      offsetCommits: this.#offsetCommits,
    };
  }

  /** The in-memory group, if it is active (tests and DescribeGroups). */
  group(groupId: string): ConsumerGroup | undefined {
    return this.#groups.get(groupId);
  }

  // ---- FindCoordinator ---------------------------------------------------------------------------------------

  /**
   * FindCoordinator: this broker, or with ownership the group's owner, at the address of the listener the request
   * came in on (`context`; without one, the coordinator's configured address).
   */
  findCoordinator(
    request: RequestOf<10>,
    context?: Pick<GroupRequestContext, "broker" | "transport">,
  ): ResponseBody<10> {
    const { nodeId } = this.#options;
    const host = context?.broker?.host ?? this.#options.host;
    const port = context?.broker?.port ?? this.#options.port;
    const answer = (
      keyType: number,
      groupId: string,
    ): { errorCode: number; errorMessage: string | null; nodeId: number; host: string; port: number } => {
      if (this.#closed)
        return {
          errorCode: KafkaErrorCode.COORDINATOR_NOT_AVAILABLE,
          errorMessage: "the broker is shutting down",
          nodeId: -1,
          host: "",
          port: -1,
        };
      if (keyType !== CoordinatorKeyType.group) {
        return {
          errorCode: KafkaErrorCode.INVALID_REQUEST,
          errorMessage: `coordinator key type ${String(keyType)} is not supported (only consumer groups)`,
          nodeId: -1,
          host: "",
          port: -1,
        };
      }
      const ownership = this.#options.ownership;
      if (ownership === undefined) return { errorCode: KafkaErrorCode.NONE, errorMessage: null, nodeId, host, port };
      const owner = ownership.coordinatorOf(groupId, context?.transport?.listenerName);
      if (owner === undefined) {
        return {
          errorCode: KafkaErrorCode.COORDINATOR_NOT_AVAILABLE,
          errorMessage: "no live broker",
          nodeId: -1,
          host: "",
          port: -1,
        };
      }
      return {
        errorCode: KafkaErrorCode.NONE,
        errorMessage: null,
        nodeId: owner.nodeId,
        host: owner.host,
        port: owner.port,
      };
    };
    if (request.apiVersion >= 4) {
      return {
        throttleTimeMs: 0,
        errorCode: 0,
        errorMessage: null,
        nodeId: 0,
        host: "",
        port: 0,
        coordinators: request.body.coordinatorKeys.map((key) => ({ key, ...answer(request.body.keyType, key) })),
      };
    }
    return { throttleTimeMs: 0, ...answer(request.body.keyType, request.body.key), coordinators: [] };
  }

  // ---- JoinGroup, SyncGroup, Heartbeat, LeaveGroup ---------------------------------------------------------------

  async joinGroup(request: RequestOf<11>, client: GroupClient): Promise<ResponseBody<11>> {
    const body = request.body;
    const fail = (errorCode: number): Promise<ResponseBody<11>> =>
      Promise.resolve(
        joinResponse(request.apiVersion, {
          errorCode,
          generationId: -1,
          protocolType: null,
          protocolName: null,
          leader: "",
          memberId: body.memberId,
          members: [],
        }),
      );
    const refusal = this.#refusal(body.groupId);
    if (refusal !== undefined) return fail(refusal);
    if (body.groupId === "") return fail(KafkaErrorCode.INVALID_GROUP_ID);
    if (body.sessionTimeoutMs < this.#minSessionTimeoutMs || body.sessionTimeoutMs > this.#maxSessionTimeoutMs) {
      return fail(KafkaErrorCode.INVALID_SESSION_TIMEOUT);
    }
    let group = this.#groups.get(body.groupId);
    if (group === undefined) {
      if (body.memberId !== "") return fail(KafkaErrorCode.UNKNOWN_MEMBER_ID);
      group = this.#createGroup(body.groupId);
    }
    const outcome = group.join({
      memberId: body.memberId,
      groupInstanceId: body.groupInstanceId,
      clientId: request.header.clientId ?? "",
      clientHost: client.clientHost,
      sessionTimeoutMs: body.sessionTimeoutMs,
      rebalanceTimeoutMs: body.rebalanceTimeoutMs < 0 ? body.sessionTimeoutMs : body.rebalanceTimeoutMs,
      protocolType: body.protocolType,
      protocols: body.protocols,
      requireKnownMemberId: request.apiVersion >= 4,
    });
    this.#forgetIfIdle(group);
    return joinResponse(request.apiVersion, await outcome);
  }

  async syncGroup(request: RequestOf<14>): Promise<ResponseBody<14>> {
    const body = request.body;
    const refusal = this.#refusal(body.groupId);
    if (refusal !== undefined)
      return syncResponse({
        errorCode: refusal,
        protocolType: null,
        protocolName: null,
        assignment: new Uint8Array(0),
      });
    const group = this.#groups.get(body.groupId);
    if (group === undefined)
      return syncResponse({
        errorCode: KafkaErrorCode.UNKNOWN_MEMBER_ID,
        protocolType: null,
        protocolName: null,
        assignment: new Uint8Array(0),
      });
    return syncResponse(
      await group.sync({
        memberId: body.memberId,
        groupInstanceId: body.groupInstanceId,
        generationId: body.generationId,
        protocolType: body.protocolType,
        protocolName: body.protocolName,
        assignments: body.assignments,
      }),
    );
  }

  heartbeat(request: RequestOf<12>): ResponseBody<12> {
    const body = request.body;
    const refusal = this.#refusal(body.groupId);
    if (refusal !== undefined) return { throttleTimeMs: 0, errorCode: refusal };
    const group = this.#groups.get(body.groupId);
    const errorCode =
      group === undefined
        ? KafkaErrorCode.UNKNOWN_MEMBER_ID
        : group.heartbeat({
            memberId: body.memberId,
            groupInstanceId: body.groupInstanceId,
            generationId: body.generationId,
          });
    return { throttleTimeMs: 0, errorCode };
  }

  leaveGroup(request: RequestOf<13>): ResponseBody<13> {
    const body = request.body;
    const batch = request.apiVersion >= 3;
    const leaving = batch
      ? body.members.map((member) => ({ memberId: member.memberId, groupInstanceId: member.groupInstanceId }))
      : [{ memberId: body.memberId, groupInstanceId: null }];
    let codes: number[];
    let topLevel: number = KafkaErrorCode.NONE;
    const refusal = this.#refusal(body.groupId);
    if (refusal !== undefined) {
      topLevel = refusal;
      codes = leaving.map(() => refusal);
    } else if (body.groupId === "") {
      topLevel = KafkaErrorCode.INVALID_GROUP_ID;
      codes = leaving.map(() => KafkaErrorCode.INVALID_GROUP_ID);
    } else {
      const group = this.#groups.get(body.groupId);
      codes = group === undefined ? leaving.map(() => KafkaErrorCode.UNKNOWN_MEMBER_ID) : group.leave(leaving);
      if (group !== undefined) this.#forgetIfIdle(group);
    }
    if (!batch) return { throttleTimeMs: 0, errorCode: codes[0] ?? topLevel, members: [] };
    return {
      throttleTimeMs: 0,
      errorCode: topLevel,
      members: leaving.map((member, index) => ({
        memberId: member.memberId,
        groupInstanceId: member.groupInstanceId,
        errorCode: codes[index] ?? topLevel,
      })),
    };
  }

  // ---- OffsetCommit, OffsetFetch ---------------------------------------------------------------------------------

  /**
   * Membership and generation are checked on arrival; the partition checks and the write then run after the
   * group's earlier commits, so commits of one group (and of one connection) apply in arrival order.
   */
  offsetCommit(request: RequestOf<8>, client: Partial<GroupClient> = {}): Promise<ResponseBody<8>> {
    const body = request.body;
    const groupError = this.#checkCommit(
      body.groupId,
      body.memberId,
      body.groupInstanceId,
      body.generationIdOrMemberEpoch,
    );
    const codes = body.topics.map((topic) => topic.partitions.map((): number => groupError));
    const respond = (): ResponseBody<8> => ({
      throttleTimeMs: 0,
      topics: body.topics.map((topic, topicIndex) => ({
        name: topic.name,
        partitions: topic.partitions.map((partition, partitionIndex) => ({
          partitionIndex: partition.partitionIndex,
          errorCode: codes[topicIndex]![partitionIndex]!,
        })),
      })),
    });
    if (groupError !== KafkaErrorCode.NONE) return Promise.resolve(respond());
    const protocolType = this.#groups.get(body.groupId)?.protocolType ?? "";
    return this.#serialized(body.groupId, async () => {
      const accepted: { topicIndex: number; partitionIndex: number; offset: OffsetToCommit }[] = [];
      for (const [topicIndex, topic] of body.topics.entries()) {
        const partitionCount = await this.#partitionCount(topic.name, client);
        for (const [partitionIndex, partition] of topic.partitions.entries()) {
          const metadata = partition.committedMetadata ?? "";
          let code: number = KafkaErrorCode.NONE;
          if (topic.name === "" || partition.partitionIndex < 0 || partition.partitionIndex >= partitionCount)
            code = KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
          else if (ENCODER.encode(metadata).length > this.#maxOffsetMetadataBytes)
            code = KafkaErrorCode.OFFSET_METADATA_TOO_LARGE;
          codes[topicIndex]![partitionIndex] = code;
          if (code !== KafkaErrorCode.NONE) continue;
          accepted.push({
            topicIndex,
            partitionIndex,
            offset: {
              topic: topic.name,
              partition: partition.partitionIndex,
              committedOffset: partition.committedOffset,
              committedLeaderEpoch: partition.committedLeaderEpoch,
              metadata,
            },
          });
        }
      }
      if (accepted.length > 0) {
        try {
          await this.#offsets.commit(
            body.groupId,
            protocolType,
            accepted.map((entry) => entry.offset),
            this.#clock.now(),
            { signal: client.signal },
          );
          this.#offsetCommits += 1;
        } catch (error) {
          const code = this.#storageErrorCode(error, "group offset commit failed", body.groupId);
          for (const entry of accepted) codes[entry.topicIndex]![entry.partitionIndex] = code;
        }
      }
      return respond();
    });
  }

  /** Partitions of `topic` per the broker's catalog; unbounded when no catalog was given. */
  async #partitionCount(topic: string, client: Partial<GroupClient>): Promise<number> {
    if (client.topics === undefined || topic === "") return topic === "" ? 0 : Number.POSITIVE_INFINITY;
    try {
      return (await client.topics.lookup(topic, client.signal))?.partitionCount ?? 0;
    } catch (error) {
      // The catalog could not answer: do not refuse a commit for that (the partition check is a courtesy).
      if (!NereusError.is(error)) throw error;
      return Number.POSITIVE_INFINITY;
    }
  }

  #checkCommit(groupId: string, memberId: string, groupInstanceId: string | null, generationId: number): number {
    const refusal = this.#refusal(groupId);
    if (refusal !== undefined) return refusal;
    if (groupId === "") return KafkaErrorCode.INVALID_GROUP_ID;
    const group = this.#groups.get(groupId);
    if (group === undefined) return generationId < 0 ? KafkaErrorCode.NONE : KafkaErrorCode.ILLEGAL_GENERATION;
    return group.checkOffsetCommit({ memberId, groupInstanceId, generationId });
  }

  /** Runs `work` after the group's earlier commits (the chain never rejects, so one failure blocks nothing). */
  #serialized<T>(groupId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#commitTails.get(groupId) ?? Promise.resolve();
    const result = previous.then(work);
    const tail = result.catch(() => undefined);
    this.#commitTails.set(groupId, tail);
    void tail.then(() => {
      if (this.#commitTails.get(groupId) === tail) this.#commitTails.delete(groupId);
    });
    return result;
  }

  async offsetFetch(request: RequestOf<9>): Promise<ResponseBody<9>> {
    const body = request.body;
    if (request.apiVersion >= 8) {
      const groups = await Promise.all(
        body.groups.map(async (group) => {
          const fetched = await this.#fetchGroup(
            group.groupId,
            group.topics?.map((topic) => ({ name: topic.name, partitionIndexes: topic.partitionIndexes })) ?? null,
          );
          return { groupId: group.groupId, errorCode: fetched.errorCode, topics: fetched.topics };
        }),
      );
      return { throttleTimeMs: 0, topics: [], errorCode: 0, groups };
    }
    const fetched = await this.#fetchGroup(body.groupId, body.topics);
    if (request.apiVersion < 2 && fetched.errorCode !== KafkaErrorCode.NONE) {
      // v1 has no top-level error: report it on every requested partition.
      const topics = (body.topics ?? []).map((topic) => ({
        name: topic.name,
        partitions: topic.partitionIndexes.map((partitionIndex) => ({
          ...noOffset(partitionIndex),
          errorCode: fetched.errorCode,
        })),
      }));
      return { throttleTimeMs: 0, topics, errorCode: fetched.errorCode, groups: [] };
    }
    return { throttleTimeMs: 0, topics: fetched.topics, errorCode: fetched.errorCode, groups: [] };
  }

  async #fetchGroup(
    groupId: string,
    topics: readonly { readonly name: string; readonly partitionIndexes: readonly number[] }[] | null,
  ): Promise<{ errorCode: number; topics: { name: string; partitions: OffsetFetchPartition[] }[] }> {
    const refusal = this.#refusal(groupId);
    if (refusal !== undefined) return { errorCode: refusal, topics: [] };
    if (groupId === "") return { errorCode: KafkaErrorCode.INVALID_GROUP_ID, topics: [] };
    const wanted =
      topics === null
        ? null
        : new Map(topics.map((topic) => [topic.name, topic.partitionIndexes.filter((partition) => partition >= 0)]));
    let stored: GroupOffsets;
    try {
      // Unknown (empty-named) topics have no key; ask the store only for what can exist.
      if (wanted !== null) wanted.delete("");
      stored = await this.#offsets.fetch(groupId, wanted);
    } catch (error) {
      return { errorCode: this.#storageErrorCode(error, "group offset fetch failed", groupId), topics: [] };
    }
    if (topics === null) {
      return {
        errorCode: KafkaErrorCode.NONE,
        topics: [...stored.entries()].map(([name, partitions]) => ({
          name,
          partitions: [...partitions.values()].map(committedPartition),
        })),
      };
    }
    return {
      errorCode: KafkaErrorCode.NONE,
      topics: topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitionIndexes.map((partitionIndex) => {
          const record = stored.get(topic.name)?.get(partitionIndex);
          return record === undefined ? noOffset(partitionIndex) : committedPartition(record);
        }),
      })),
    };
  }

  // ---- DescribeGroups, ListGroups --------------------------------------------------------------------------------

  async describeGroups(request: RequestOf<15>): Promise<ResponseBody<15>> {
    const groups = await Promise.all(request.body.groups.map((groupId) => this.#describe(groupId)));
    return { throttleTimeMs: 0, groups };
  }

  async #describe(groupId: string): Promise<ResponseBody<15>["groups"][number]> {
    const described = (
      errorCode: number,
      summary: Omit<GroupSummary, "groupId">,
    ): ResponseBody<15>["groups"][number] => ({
      errorCode,
      groupId,
      groupState: summary.state,
      protocolType: summary.protocolType,
      protocolData: summary.protocolName,
      members: summary.members.map((member) => ({
        memberId: member.memberId,
        groupInstanceId: member.groupInstanceId,
        clientId: member.clientId,
        clientHost: member.clientHost,
        memberMetadata: member.metadata,
        memberAssignment: member.assignment,
      })),
      authorizedOperations: -2147483648,
    });
    const dead = { state: "Dead" as const, protocolType: "", protocolName: "", members: [] };
    const refusal = this.#refusal(groupId);
    if (refusal !== undefined) return described(refusal, dead);
    if (groupId === "") return described(KafkaErrorCode.INVALID_GROUP_ID, dead);
    const group = this.#groups.get(groupId);
    if (group !== undefined) return described(KafkaErrorCode.NONE, group.summary());
    try {
      const root = await this.#offsets.getGroup(groupId);
      if (root === undefined) return described(KafkaErrorCode.NONE, dead);
      return described(KafkaErrorCode.NONE, {
        state: "Empty",
        protocolType: root.protocolType,
        protocolName: "",
        members: [],
      });
    } catch (error) {
      return described(this.#storageErrorCode(error, "group describe failed", groupId), dead);
    }
  }

  async listGroups(request: RequestOf<16>): Promise<ResponseBody<16>> {
    if (this.#closed) return { throttleTimeMs: 0, errorCode: KafkaErrorCode.COORDINATOR_NOT_AVAILABLE, groups: [] };
    let listed: GroupListing[];
    try {
      listed = await this.listGroupStates();
    } catch (error) {
      return { throttleTimeMs: 0, errorCode: this.#storageErrorCode(error, "group list failed", ""), groups: [] };
    }
    const states = new Set(request.body.statesFilter.map((state) => state.toLowerCase()));
    const types = new Set(request.body.typesFilter.map((type) => type.toLowerCase()));
    const groups = listed
      .filter(
        (group) =>
          (states.size === 0 || states.has(group.state.toLowerCase())) && (types.size === 0 || types.has("classic")),
      )
      .map((group) => ({
        groupId: group.groupId,
        protocolType: group.protocolType,
        groupState: group.state,
        groupType: "classic",
      }));
    return { throttleTimeMs: 0, errorCode: KafkaErrorCode.NONE, groups };
  }

  // ---- Read-only views (admin endpoints) -----------------------------------------------------------------------------

  /**
   * Every group of the cluster — stored (it committed offsets) or active in this coordinator, Dead ones left out —
   * sorted by id, with its state and member count (0 for a stored group without members here). Reads the store and
   * throws its errors; changes nothing.
   */
  async listGroupStates(options: { readonly signal?: AbortSignal } = {}): Promise<GroupListing[]> {
    const listed = new Map<string, GroupListing>();
    for (const root of await this.#offsets.listGroups(options))
      listed.set(root.groupId, { groupId: root.groupId, protocolType: root.protocolType, state: "Empty", members: 0 });
    for (const group of this.#groups.values()) {
      if (group.state === "Dead") continue;
      const members = group.memberIds.length;
      listed.set(group.groupId, {
        groupId: group.groupId,
        protocolType: group.protocolType ?? "",
        state: group.state,
        members,
      });
    }
    return [...listed.values()].sort((left, right) =>
      left.groupId < right.groupId ? -1 : left.groupId > right.groupId ? 1 : 0,
    );
  }

  /**
   * The committed offsets of `groupId` — topic → partition → record — read from the store (never a cache). Empty
   * for a group that committed nothing; throws the store's errors.
   */
  committedOffsets(groupId: string, options: { readonly signal?: AbortSignal } = {}): Promise<GroupOffsets> {
    return this.#offsets.fetch(groupId, null, options);
  }

  // ---- DeleteGroups --------------------------------------------------------------------------------------------------

  /**
   * Deletes groups without members: their committed offsets, then their root (after the group's offset writes in
   * flight). As Kafka: a group with members is NON_EMPTY_GROUP, a group that is neither active nor stored is
   * GROUP_ID_NOT_FOUND, an empty id INVALID_GROUP_ID; each group is answered on its own.
   */
  async deleteGroups(request: RequestOf<42>): Promise<ResponseBody<42>> {
    const results = await Promise.all(
      request.body.groupsNames.map(async (groupId) => ({ groupId, errorCode: await this.#deleteGroup(groupId) })),
    );
    return { throttleTimeMs: 0, results };
  }

  async #deleteGroup(groupId: string): Promise<number> {
    const refusal = this.#refusal(groupId);
    if (refusal !== undefined) return refusal;
    if (groupId === "") return KafkaErrorCode.INVALID_GROUP_ID;
    return this.#serialized(groupId, async () => {
      const group = this.#groups.get(groupId);
      if (group !== undefined && !group.idle) return KafkaErrorCode.NON_EMPTY_GROUP;
      try {
        const existed = await this.#offsets.deleteGroup(groupId);
        if (!existed && group === undefined) return KafkaErrorCode.GROUP_ID_NOT_FOUND;
      } catch (error) {
        return this.#storageErrorCode(error, "group delete failed", groupId);
      }
      if (group !== undefined && this.#groups.get(groupId) === group && group.idle) this.#groups.delete(groupId);
      this.#options.logger?.info("group deleted", { groupId });
      return KafkaErrorCode.NONE;
    });
  }

  // ---- OffsetDelete --------------------------------------------------------------------------------------------------

  /**
   * Deletes committed offsets of one group (after its offset writes in flight). As Kafka: an unknown group is
   * GROUP_ID_NOT_FOUND; a group with members of another protocol type than "consumer" is NON_EMPTY_GROUP; with
   * consumer members, the partitions of a topic they subscribed to (or of every topic, when a subscription cannot be
   * read) are refused with GROUP_SUBSCRIBED_TO_TOPIC and the others deleted; a partition without a committed offset
   * is a no-op.
   */
  async offsetDelete(request: RequestOf<47>): Promise<ResponseBody<47>> {
    const { groupId, topics } = request.body;
    const perPartition = (errorFor: (topic: string) => number): ResponseBody<47> => ({
      errorCode: KafkaErrorCode.NONE,
      throttleTimeMs: 0,
      topics: topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex }) => ({ partitionIndex, errorCode: errorFor(topic.name) })),
      })),
    });
    const failed = (errorCode: number): ResponseBody<47> => ({ errorCode, throttleTimeMs: 0, topics: [] });
    const refusal = this.#refusal(groupId);
    if (refusal !== undefined) return failed(refusal);
    if (groupId === "") return failed(KafkaErrorCode.INVALID_GROUP_ID);
    return this.#serialized(groupId, async () => {
      const group = this.#groups.get(groupId);
      let subscribed: Set<string> | "all" = new Set();
      if (group !== undefined && !group.idle) {
        if (group.protocolType !== "consumer") return failed(KafkaErrorCode.NON_EMPTY_GROUP);
        subscribed = group.subscribedTopics() ?? "all";
      }
      try {
        if (group === undefined && (await this.#offsets.getGroup(groupId)) === undefined)
          return failed(KafkaErrorCode.GROUP_ID_NOT_FOUND);
        const refused = (topic: string): boolean => subscribed === "all" || subscribed.has(topic);
        const doomed = topics
          .filter((topic) => !refused(topic.name))
          .flatMap((topic) =>
            topic.partitions.map(({ partitionIndex }) => ({ topic: topic.name, partition: partitionIndex })),
          );
        await this.#offsets.deleteOffsets(groupId, doomed);
        if (doomed.length > 0)
          this.#options.logger?.info("group offsets deleted", { groupId, partitions: doomed.length });
        return perPartition((topic) =>
          refused(topic) ? KafkaErrorCode.GROUP_SUBSCRIBED_TO_TOPIC : KafkaErrorCode.NONE,
        );
      } catch (error) {
        return failed(this.#storageErrorCode(error, "group offset delete failed", groupId));
      }
    });
  }

  // ---- Lifecycle ---------------------------------------------------------------------------------------------------

  /**
   * Answers every parked JoinGroup/SyncGroup with COORDINATOR_NOT_AVAILABLE, cancels every timer and waits for
   * offset writes in flight. Later requests get COORDINATOR_NOT_AVAILABLE. Idempotent; leaves the store open.
   */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      for (const group of this.#groups.values()) group.shutdown(KafkaErrorCode.COORDINATOR_NOT_AVAILABLE);
      this.#groups.clear();
    }
    await Promise.all([...this.#commitTails.values()]);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** A failed offset read or write is retriable for the client (it finds the coordinator again and retries). */
  #storageErrorCode(error: unknown, event: string, groupId: string): number {
    if (!NereusError.is(error)) throw error;
    this.#options.logger?.warn(event, { groupId, code: error.code, error: error.message });
    return KafkaErrorCode.COORDINATOR_NOT_AVAILABLE;
  }

  #createGroup(groupId: string): ConsumerGroup {
    const group = new ConsumerGroup(groupId, this.#clock, this.#policy, this.#hooksOf(groupId));
    this.#groups.set(groupId, group);
    return group;
  }

  #hooksOf(groupId: string): GroupHooks {
    return {
      onIdle: (idle) => this.#forgetIfIdle(idle),
      onEvent: (event, fields) => {
        if (event === "group rebalance started") this.#rebalances += 1;
        else if (event === "group member removed") this.#membersRemoved += 1;
        else if (event === "group stable" || event === "group empty") this.#storeSnapshot(groupId);
        this.#options.logger?.info(event, fields);
      },
    };
  }

  #forgetIfIdle(group: ConsumerGroup): void {
    if (group.idle && this.#groups.get(group.groupId) === group) this.#groups.delete(group.groupId);
  }
}

/** Creates the coordinator; register its `handlers` with the broker. */
export function createGroupCoordinator(options: GroupCoordinatorOptions): GroupCoordinator {
  return new GroupCoordinator(options);
}

/** Kafka reports a member's host as "/" + its address (no port). */
function clientOf(context: GroupRequestContext): GroupClient {
  const match = /^\[?([^\]]*?)\]?:\d+$/.exec(context.peer);
  return { clientHost: `/${match?.[1] ?? context.peer}`, topics: context.topics, signal: context.signal };
}

type OffsetFetchPartition = ResponseBody<9>["topics"][number]["partitions"][number];

function noOffset(partitionIndex: number): OffsetFetchPartition {
  return {
    partitionIndex,
    committedOffset: -1,
    committedLeaderEpoch: -1,
    metadata: "",
    errorCode: KafkaErrorCode.NONE,
  };
}

function committedPartition(record: CommittedOffset): OffsetFetchPartition {
  return {
    partitionIndex: record.partition,
    committedOffset: record.committedOffset,
    committedLeaderEpoch: record.committedLeaderEpoch,
    metadata: record.metadata,
    errorCode: KafkaErrorCode.NONE,
  };
}

function joinResponse(version: number, outcome: JoinOutcome): ResponseBody<11> {
  return {
    throttleTimeMs: 0,
    errorCode: outcome.errorCode,
    generationId: outcome.generationId,
    protocolType: outcome.protocolType,
    // Null only from v7; older versions carry "" (as Kafka's JoinGroupResponse does).
    protocolName: version >= 7 ? outcome.protocolName : (outcome.protocolName ?? ""),
    leader: outcome.leader,
    skipAssignment: false,
    memberId: outcome.memberId,
    members: outcome.members.map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      metadata: member.metadata,
    })),
  };
}

function syncResponse(outcome: SyncOutcome): ResponseBody<14> {
  return {
    throttleTimeMs: 0,
    errorCode: outcome.errorCode,
    protocolType: outcome.protocolType,
    protocolName: outcome.protocolName,
    assignment: outcome.assignment,
  };
}
