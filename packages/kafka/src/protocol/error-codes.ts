// Kafka error codes used by the APIs this codec implements: numeric code, Kafka's name and whether clients treat
// the error as retriable (the Java client's RetriableException hierarchy). Facts from Kafka's Errors table; the
// adapter maps storage errors onto these exactly once (map-storage-error.ts, later).

const ERRORS = {
  UNKNOWN_SERVER_ERROR: { code: -1, retriable: false },
  NONE: { code: 0, retriable: false },
  OFFSET_OUT_OF_RANGE: { code: 1, retriable: false },
  CORRUPT_MESSAGE: { code: 2, retriable: true },
  UNKNOWN_TOPIC_OR_PARTITION: { code: 3, retriable: true },
  INVALID_FETCH_SIZE: { code: 4, retriable: false },
  LEADER_NOT_AVAILABLE: { code: 5, retriable: true },
  NOT_LEADER_OR_FOLLOWER: { code: 6, retriable: true },
  REQUEST_TIMED_OUT: { code: 7, retriable: true },
  BROKER_NOT_AVAILABLE: { code: 8, retriable: false },
  REPLICA_NOT_AVAILABLE: { code: 9, retriable: true },
  MESSAGE_TOO_LARGE: { code: 10, retriable: false },
  OFFSET_METADATA_TOO_LARGE: { code: 12, retriable: false },
  NETWORK_EXCEPTION: { code: 13, retriable: true },
  COORDINATOR_LOAD_IN_PROGRESS: { code: 14, retriable: true },
  COORDINATOR_NOT_AVAILABLE: { code: 15, retriable: true },
  NOT_COORDINATOR: { code: 16, retriable: true },
  INVALID_TOPIC_EXCEPTION: { code: 17, retriable: false },
  RECORD_LIST_TOO_LARGE: { code: 18, retriable: false },
  NOT_ENOUGH_REPLICAS: { code: 19, retriable: true },
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: { code: 20, retriable: true },
  INVALID_REQUIRED_ACKS: { code: 21, retriable: false },
  ILLEGAL_GENERATION: { code: 22, retriable: false },
  INCONSISTENT_GROUP_PROTOCOL: { code: 23, retriable: false },
  INVALID_GROUP_ID: { code: 24, retriable: false },
  UNKNOWN_MEMBER_ID: { code: 25, retriable: false },
  INVALID_SESSION_TIMEOUT: { code: 26, retriable: false },
  REBALANCE_IN_PROGRESS: { code: 27, retriable: false },
  INVALID_COMMIT_OFFSET_SIZE: { code: 28, retriable: false },
  TOPIC_AUTHORIZATION_FAILED: { code: 29, retriable: false },
  GROUP_AUTHORIZATION_FAILED: { code: 30, retriable: false },
  CLUSTER_AUTHORIZATION_FAILED: { code: 31, retriable: false },
  INVALID_TIMESTAMP: { code: 32, retriable: false },
  UNSUPPORTED_SASL_MECHANISM: { code: 33, retriable: false },
  ILLEGAL_SASL_STATE: { code: 34, retriable: false },
  UNSUPPORTED_VERSION: { code: 35, retriable: false },
  TOPIC_ALREADY_EXISTS: { code: 36, retriable: false },
  INVALID_PARTITIONS: { code: 37, retriable: false },
  INVALID_REPLICATION_FACTOR: { code: 38, retriable: false },
  INVALID_REPLICA_ASSIGNMENT: { code: 39, retriable: false },
  INVALID_CONFIG: { code: 40, retriable: false },
  NOT_CONTROLLER: { code: 41, retriable: true },
  INVALID_REQUEST: { code: 42, retriable: false },
  UNSUPPORTED_FOR_MESSAGE_FORMAT: { code: 43, retriable: false },
  POLICY_VIOLATION: { code: 44, retriable: false },
  OUT_OF_ORDER_SEQUENCE_NUMBER: { code: 45, retriable: false },
  DUPLICATE_SEQUENCE_NUMBER: { code: 46, retriable: false },
  INVALID_PRODUCER_EPOCH: { code: 47, retriable: false },
  INVALID_TXN_STATE: { code: 48, retriable: false },
  INVALID_PRODUCER_ID_MAPPING: { code: 49, retriable: false },
  INVALID_TRANSACTION_TIMEOUT: { code: 50, retriable: false },
  CONCURRENT_TRANSACTIONS: { code: 51, retriable: true },
  TRANSACTION_COORDINATOR_FENCED: { code: 52, retriable: false },
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: { code: 53, retriable: false },
  SECURITY_DISABLED: { code: 54, retriable: false },
  OPERATION_NOT_ATTEMPTED: { code: 55, retriable: false },
  KAFKA_STORAGE_ERROR: { code: 56, retriable: true },
  SASL_AUTHENTICATION_FAILED: { code: 58, retriable: false },
  UNKNOWN_PRODUCER_ID: { code: 59, retriable: false },
  NON_EMPTY_GROUP: { code: 68, retriable: false },
  GROUP_ID_NOT_FOUND: { code: 69, retriable: false },
  FETCH_SESSION_ID_NOT_FOUND: { code: 70, retriable: true },
  INVALID_FETCH_SESSION_EPOCH: { code: 71, retriable: true },
  TOPIC_DELETION_DISABLED: { code: 73, retriable: false },
  FENCED_LEADER_EPOCH: { code: 74, retriable: true },
  UNKNOWN_LEADER_EPOCH: { code: 75, retriable: true },
  UNSUPPORTED_COMPRESSION_TYPE: { code: 76, retriable: false },
  OFFSET_NOT_AVAILABLE: { code: 78, retriable: true },
  MEMBER_ID_REQUIRED: { code: 79, retriable: false },
  GROUP_MAX_SIZE_REACHED: { code: 81, retriable: false },
  FENCED_INSTANCE_ID: { code: 82, retriable: false },
  GROUP_SUBSCRIBED_TO_TOPIC: { code: 86, retriable: false },
  INVALID_RECORD: { code: 87, retriable: false },
  UNSTABLE_OFFSET_COMMIT: { code: 88, retriable: true },
  THROTTLING_QUOTA_EXCEEDED: { code: 89, retriable: true },
  PRODUCER_FENCED: { code: 90, retriable: false },
  RESOURCE_NOT_FOUND: { code: 91, retriable: false },
  DUPLICATE_RESOURCE: { code: 92, retriable: false },
  UNACCEPTABLE_CREDENTIAL: { code: 93, retriable: false },
  UNKNOWN_TOPIC_ID: { code: 100, retriable: true },
  INCONSISTENT_TOPIC_ID: { code: 103, retriable: true },
  FETCH_SESSION_TOPIC_ID_ERROR: { code: 106, retriable: true },
  FENCED_MEMBER_EPOCH: { code: 110, retriable: false },
  UNRELEASED_INSTANCE_ID: { code: 111, retriable: false },
  UNSUPPORTED_ASSIGNOR: { code: 112, retriable: false },
  STALE_MEMBER_EPOCH: { code: 113, retriable: false },
  TRANSACTION_ABORTABLE: { code: 120, retriable: false },
} as const;

type ErrorName = keyof typeof ERRORS;

/** One Kafka error code. */
export interface KafkaError {
  readonly code: number;
  readonly name: string;
  /** Clients retry the request (after a metadata refresh where relevant) instead of failing it. */
  readonly retriable: boolean;
}

/** Kafka error codes by name, e.g. `KafkaErrorCode.UNSUPPORTED_VERSION === 35`. */
export const KafkaErrorCode = Object.fromEntries(Object.entries(ERRORS).map(([name, entry]) => [name, entry.code])) as {
  readonly [N in ErrorName]: (typeof ERRORS)[N]["code"];
};

/** Every error code of {@link KafkaErrorCode} with its name and retriable flag, by numeric code. */
export const KAFKA_ERRORS: ReadonlyMap<number, KafkaError> = new Map(
  Object.entries(ERRORS).map(([name, entry]) => [entry.code, { code: entry.code, name, retriable: entry.retriable }]),
);

/** The table entry for `code`; unknown codes are reported as non-retriable "UNKNOWN_ERROR_<code>". */
export function kafkaError(code: number): KafkaError {
  return KAFKA_ERRORS.get(code) ?? { code, name: `UNKNOWN_ERROR_${String(code)}`, retriable: false };
}
