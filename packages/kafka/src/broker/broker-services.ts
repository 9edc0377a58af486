// What the built-in handlers share: the broker's identity and settings, the topic registry, the partition logs,
// the producer-id allocator, metrics and logging. Built once by createKafkaBroker.
import type { StorageProfile } from "@nereus/core";
import type { PartitionLogs } from "../log/partition-logs.js";
import type { ProducerIdAllocator } from "../producers/producer-id-allocator.js";
import type { TopicRegistry } from "../topics/topic-registry.js";
import type { KafkaBrokerLogger } from "./broker-logger.js";
import type { BrokerMetrics } from "./broker-metrics.js";
import type { BrokerIdentity } from "./kafka-api-handler.js";

/** Broker-wide settings the handlers apply. */
export interface BrokerSettings {
  readonly defaultPartitions: number;
  readonly autoCreateTopics: boolean;
  readonly defaultProfile: StorageProfile;
  readonly maxPartitionsPerTopic: number;
  /** Fetch maxWaitMs is capped at this. */
  readonly maxFetchWaitMs: number;
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
  readonly metrics: BrokerMetrics;
  readonly logger: KafkaBrokerLogger;
  readonly clock: () => number;
}
