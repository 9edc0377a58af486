// Numeric Kafka API keys of the APIs this codec implements, by name.

/** Kafka API keys by name (only the APIs with a codec here). */
export const ApiKey = {
  Produce: 0,
  Fetch: 1,
  ListOffsets: 2,
  Metadata: 3,
  OffsetCommit: 8,
  OffsetFetch: 9,
  FindCoordinator: 10,
  JoinGroup: 11,
  Heartbeat: 12,
  LeaveGroup: 13,
  SyncGroup: 14,
  DescribeGroups: 15,
  ListGroups: 16,
  SaslHandshake: 17,
  ApiVersions: 18,
  CreateTopics: 19,
  DeleteTopics: 20,
  DeleteRecords: 21,
  InitProducerId: 22,
  DescribeAcls: 29,
  CreateAcls: 30,
  DeleteAcls: 31,
  DescribeConfigs: 32,
  AlterConfigs: 33,
  DescribeLogDirs: 35,
  SaslAuthenticate: 36,
  CreatePartitions: 37,
  DeleteGroups: 42,
  OffsetDelete: 47,
  IncrementalAlterConfigs: 44,
  DescribeUserScramCredentials: 50,
  AlterUserScramCredentials: 51,
} as const;

/** One of the API keys in {@link ApiKey}. */
export type ApiKey = (typeof ApiKey)[keyof typeof ApiKey];
