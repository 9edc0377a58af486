// Topic discovery: PARTITIONED_METADATA (how many partitions a topic has) and LOOKUP (which broker serves a topic),
// each with its response.
import { defineMessage } from "../wire/message-schema.js";
import { protoEnum } from "../wire/proto-enum.js";
import { bool, string, uint32, uint64 } from "../wire/proto-type.js";
import { optional, repeated, required } from "../wire/field-spec.js";
import { type KeyValue, KeyValueCodec } from "../messages/key-value.js";
import { serverErrorType } from "../messages/server-error.js";

/** PARTITIONED_METADATA: how many partitions does `topic` have? */
export interface CommandPartitionedTopicMetadata {
  readonly topic: string;
  readonly requestId: bigint;
  readonly originalPrincipal?: string;
  readonly originalAuthData?: string;
  readonly originalAuthMethod?: string;
  /** False asks the broker not to create the topic while answering; absent means true. */
  readonly metadataAutoCreationEnabled?: boolean;
}

export const CommandPartitionedTopicMetadataCodec = defineMessage<CommandPartitionedTopicMetadata>(
  "CommandPartitionedTopicMetadata",
  {
    topic: required(1, string),
    requestId: required(2, uint64),
    originalPrincipal: optional(3, string),
    originalAuthData: optional(4, string),
    originalAuthMethod: optional(5, string),
    metadataAutoCreationEnabled: optional(6, bool),
  },
);

/** Outcomes of PARTITIONED_METADATA, by name. */
export const PartitionedMetadataOutcome = { Success: 0, Failed: 1 } as const;

/** PARTITIONED_METADATA_RESPONSE. */
export interface CommandPartitionedTopicMetadataResponse {
  /** Number of partitions; 0 for a non-partitioned topic. Absent on failure. */
  readonly partitions?: number;
  readonly requestId: bigint;
  /** A {@link PartitionedMetadataOutcome} value. */
  readonly response?: number;
  /** A ServerError value, on failure. */
  readonly error?: number;
  readonly message?: string;
}

export const CommandPartitionedTopicMetadataResponseCodec = defineMessage<CommandPartitionedTopicMetadataResponse>(
  "CommandPartitionedTopicMetadataResponse",
  {
    partitions: optional(1, uint32),
    requestId: required(2, uint64),
    response: optional(3, protoEnum("PartitionedTopicMetadataResponse.LookupType", PartitionedMetadataOutcome)),
    error: optional(4, serverErrorType),
    message: optional(5, string),
  },
);

/** LOOKUP: which broker serves `topic`? */
export interface CommandLookupTopic {
  readonly topic: string;
  readonly requestId: bigint;
  /** True once a previous answer redirected here; absent means false. */
  readonly authoritative?: boolean;
  readonly originalPrincipal?: string;
  readonly originalAuthData?: string;
  readonly originalAuthMethod?: string;
  /** Name of the listener whose address the client wants. */
  readonly advertisedListenerName?: string;
  readonly properties?: readonly KeyValue[];
}

export const CommandLookupTopicCodec = defineMessage<CommandLookupTopic>("CommandLookupTopic", {
  topic: required(1, string),
  requestId: required(2, uint64),
  authoritative: optional(3, bool),
  originalPrincipal: optional(4, string),
  originalAuthData: optional(5, string),
  originalAuthMethod: optional(6, string),
  advertisedListenerName: optional(7, string),
  properties: repeated(8, KeyValueCodec),
});

/** Outcomes of LOOKUP, by name. */
export const LookupOutcome = {
  /** Ask again at `brokerServiceUrl`. */
  Redirect: 0,
  /** Connect to `brokerServiceUrl`, which serves the topic. */
  Connect: 1,
  Failed: 2,
} as const;

/** LOOKUP_RESPONSE. */
export interface CommandLookupTopicResponse {
  /** `pulsar://host:port` of the broker to contact; absent on failure. */
  readonly brokerServiceUrl?: string;
  readonly brokerServiceUrlTls?: string;
  /** A {@link LookupOutcome} value. */
  readonly response?: number;
  readonly requestId: bigint;
  readonly authoritative?: boolean;
  /** A ServerError value, on failure. */
  readonly error?: number;
  readonly message?: string;
  /** True tells the client to keep connecting through the service URL it used (a proxy). */
  readonly proxyThroughServiceUrl?: boolean;
}

export const CommandLookupTopicResponseCodec = defineMessage<CommandLookupTopicResponse>("CommandLookupTopicResponse", {
  brokerServiceUrl: optional(1, string),
  brokerServiceUrlTls: optional(2, string),
  response: optional(3, protoEnum("CommandLookupTopicResponse.LookupType", LookupOutcome)),
  requestId: required(4, uint64),
  authoritative: optional(5, bool),
  error: optional(6, serverErrorType),
  message: optional(7, string),
  proxyThroughServiceUrl: optional(8, bool),
});
