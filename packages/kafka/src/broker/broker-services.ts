// What the built-in handlers share: the broker's identity and settings, the topic registry, the partition logs,
// the producer-id allocator, the auto-creation pace, metrics and logging. Built once by createKafkaBroker.
import type { StorageProfile } from "@nereus/core";
import type { PartitionLogs } from "../log/partition-logs.js";
import type { ProducerIdAllocator } from "../producers/producer-id-allocator.js";
import type { TopicRegistry } from "../topics/topic-registry.js";
import type { KafkaBrokerLogger } from "../logging/broker-logger.js";
import type { BrokerMetrics } from "./broker-metrics.js";
import type { BrokerIdentity } from "./kafka-api-handler.js";
import type { PartitionOwnership } from "./partition-ownership.js";
import type { TokenBucket } from "./token-bucket.js";
import type { KafkaAuthorizer } from "../security/acl/kafka-authorizer.js";

/** Broker-wide settings the handlers apply. */
export interface BrokerSettings {
  readonly defaultPartitions: number;
  readonly autoCreateTopics: boolean;
  readonly defaultProfile: StorageProfile;
  readonly maxPartitionsPerTopic: number;
  /** Fetch maxWaitMs is capped at this. */
  readonly maxFetchWaitMs: number;
  /** Topics a Metadata request may name; the names above it are answered POLICY_VIOLATION, unresolved. */
  readonly maxTopicsPerMetadataRequest: number;
  /** Topics a CreateTopics request may name; the entries above it are answered POLICY_VIOLATION, not created. */
  readonly maxTopicsPerCreateTopicsRequest: number;
}

/** The log directory DescribeLogDirs reports: where this broker's partitions are stored. */
export interface LogDirectory {
  /** Its path (the data directory) or location (an object-store URL). */
  readonly path: string;
  /** The volume's total and usable bytes; absent when unknown (reported as -1). */
  readonly capacity?: () => Promise<{ readonly totalBytes: number; readonly usableBytes: number }>;
}

/** Dependencies of the built-in handlers. */
export interface BrokerServices {
  readonly identity: BrokerIdentity;
  readonly settings: BrokerSettings;
  readonly logDir: LogDirectory;
  readonly registry: TopicRegistry;
  readonly logs: PartitionLogs;
  readonly producerIds: ProducerIdAllocator;
  /** One token per topic auto-created by Metadata; a name that finds none is answered LEADER_NOT_AVAILABLE. */
  readonly autoCreations: TokenBucket;
  readonly metrics: BrokerMetrics;
  readonly logger: KafkaBrokerLogger;
  readonly clock: () => number;
  /** ACL checks of every request (allows everything when authorization is off). */
  readonly authorizer: KafkaAuthorizer;
  /** Partition leadership among the cluster's live brokers; absent: this broker leads every partition. */
  readonly ownership: PartitionOwnership | undefined;
}
