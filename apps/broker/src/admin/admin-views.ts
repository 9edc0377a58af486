// The JSON bodies of the admin API (/admin/v1/...), shared by the endpoints that build them and the `nereus admin`
// command that prints them. Offsets are Kafka offsets (one per record); bytes are payload bytes as the storage core
// counts them. A field that cannot be known is null, never a guess.
import type { StorageProfile, StorageProfileName, StreamState } from "@nereus/core";

/** A listener of the broker. */
export interface ListenerView {
  readonly name: "kafka" | "pulsar" | "admin";
  /** The address bound. */
  readonly host: string;
  readonly port: number;
  /** What clients are told to connect to (Kafka Metadata, Pulsar lookups); the bound address for admin. */
  readonly advertised: string;
  /** The Kafka listener's name, when `kafka.listeners` names several. */
  readonly listener?: string;
  /** The security protocol when it is not plaintext (Kafka's SSL, SASL_PLAINTEXT, SASL_SSL; TLS; HTTPS). */
  readonly protocol?: string;
}

/** GET /admin/v1/brokers: this broker (one logical broker serves every partition). */
export interface BrokerView {
  readonly nodeId: number;
  readonly cluster: string;
  readonly version: string;
  readonly startedAt: string;
  readonly uptimeSeconds: number;
  readonly serving: boolean;
  readonly listeners: readonly ListenerView[];
  readonly storage: {
    readonly metadata: "sqlite" | "etcd";
    readonly objects: "filesystem" | "s3";
    /** The profile of topics created without `nereus.storage.profile` (as configured). */
    readonly defaultProfile: StorageProfileName;
    readonly materialization: "all" | "async" | "off";
    /** Whether the object store's last writes succeeded (false on a full disk until a write succeeds again). */
    readonly writable: boolean;
  };
}

/** One partition's stream as its head tells (one metadata read). */
export interface PartitionView {
  readonly partition: number;
  readonly streamId: string;
  /** The stream's state, or "MISSING" when the topic names a stream that does not exist (yet). */
  readonly state: StreamState | "MISSING";
  readonly profile: StorageProfile | null;
  /** The first offset still readable: the stream's trim offset (records below it are deleted). */
  readonly startOffset: number | null;
  /** The next offset to be written (Kafka's high watermark and log end offset). */
  readonly endOffset: number | null;
  /** endOffset − startOffset. */
  readonly records: number | null;
  /** Payload bytes appended since the stream was created (trimmed ones included). */
  readonly appendedBytes: number | null;
}

/** A Kafka topic with its partitions. */
export interface TopicView {
  readonly name: string;
  readonly topicId: string;
  readonly partitionCount: number;
  readonly profile: StorageProfile;
  /** Topic configs set at creation (Kafka names). */
  readonly configs: Readonly<Record<string, string>>;
  /** Sums over the partitions whose head could be read. */
  readonly records: number;
  readonly appendedBytes: number;
  readonly partitions: readonly PartitionView[];
}

/** GET /admin/v1/topics: a page of topics in name order; `next` is the `after` of the following page. */
export interface TopicList {
  readonly topics: readonly TopicView[];
  readonly next: string | null;
}

/** Where a partition's committed ranges are stored, from its offset and generation indexes (bounded scans). */
export interface PartitionStorageView {
  /** Commits so far (the head's commit version). */
  readonly commits: number;
  /** The writer holding the append session, if any. */
  readonly writer: { readonly writerId: string; readonly epoch: number } | null;
  /** Generation 0: the ranges as appended, in multi-stream Object WAL objects. */
  readonly wal: {
    readonly ranges: number;
    /** Distinct WAL objects holding those ranges (each may hold other streams too). */
    readonly objects: number;
    /** This stream's bytes in them (slice lengths). */
    readonly bytes: number;
  };
  /** Read-optimized generations (≥ 1) published over committed ranges. */
  readonly generations: {
    readonly committed: number;
    readonly highestLevel: number;
    readonly objects: number;
    readonly bytes: number;
    /** Entries in other states (PREPARED, QUARANTINED, ABORTED), by state. */
    readonly other: Readonly<Record<string, number>>;
  };
  /** Background materialization of this stream; null when its profile is not materialized by this broker. */
  readonly materialization: {
    /** Committed generations cover the stream contiguously up to here. */
    readonly materializedEnd: number;
    /** Payload bytes committed above `materializedEnd` (null when the trim moved past the record's end). */
    readonly backlogBytes: number | null;
    readonly backlogRecords: number;
    /** The task in progress: its state and range. */
    readonly task: {
      readonly state: string;
      readonly level: number;
      readonly from: number;
      readonly to: number;
    } | null;
  } | null;
  /** True when an index had more entries than one describe scans (the counts above cover the first ones). */
  readonly truncated: boolean;
}

/** GET /admin/v1/topics/{name}: the topic with each partition's storage details. */
export interface TopicDetail extends TopicView {
  readonly partitions: readonly (PartitionView & { readonly storage: PartitionStorageView | null })[];
}

/** One committed offset of a group with its lag. */
export interface GroupOffsetView {
  readonly topic: string;
  readonly partition: number;
  readonly committedOffset: number;
  /** The partition's end offset; null when the partition no longer exists. */
  readonly endOffset: number | null;
  /** endOffset − committedOffset; null when the end is unknown. */
  readonly lag: number | null;
  readonly metadata: string;
  readonly committedAt: string;
}

/** A consumer group in a listing. */
export interface GroupView {
  readonly groupId: string;
  readonly state: string;
  readonly protocolType: string;
  readonly members: number;
  /** Partitions with a committed offset. */
  readonly partitions: number;
  /** Sum of the partitions' positive lags; null when it was not computed (the listing's bound, see `GroupList`). */
  readonly lag: number | null;
}

/** GET /admin/v1/groups. `omittedPartitions` counts partitions left out of the lag sums by the bound. */
export interface GroupList {
  readonly groups: readonly GroupView[];
  readonly omittedPartitions: number;
}

/** A member of an active group. */
export interface GroupMemberView {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
}

/** GET /admin/v1/groups/{id}. */
export interface GroupDetail extends GroupView {
  readonly memberList: readonly GroupMemberView[];
  readonly offsets: readonly GroupOffsetView[];
}

/** The body of every admin API error. */
export interface AdminErrorBody {
  readonly error: { readonly status: number; readonly message: string };
}
