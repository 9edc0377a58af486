// Producer lifecycle: PRODUCER (open a producer on a topic) answered by PRODUCER_SUCCESS or ERROR, and
// CLOSE_PRODUCER, sent by the client to close it or by the broker to make the client reconnect.
import { defineMessage } from "../wire/message-schema.js";
import { protoEnum } from "../wire/proto-enum.js";
import { bool, bytes, int64, string, uint64 } from "../wire/proto-type.js";
import { optional, repeated, required } from "../wire/field-spec.js";
import { type KeyValue, KeyValueCodec } from "../messages/key-value.js";
import { type SchemaInfo, SchemaInfoCodec } from "../messages/schema-info.js";

/** Producer access modes, by name. */
export const ProducerAccessMode = {
  /** Any number of producers. */
  Shared: 0,
  /** Fail if another producer is connected. */
  Exclusive: 1,
  /** Wait until no other producer is connected. */
  WaitForExclusive: 2,
  /** Take over, fencing the current producer. */
  ExclusiveWithFencing: 3,
} as const;

/** PRODUCER: open producer `producerId` (chosen by the client, unique on its connection) on `topic`. */
export interface CommandProducer {
  readonly topic: string;
  readonly producerId: bigint;
  readonly requestId: bigint;
  /** Name to use; absent asks the broker to assign one. */
  readonly producerName?: string;
  readonly encrypted?: boolean;
  readonly metadata?: readonly KeyValue[];
  readonly schema?: SchemaInfo;
  /** Incremented by the client on each reconnection of this producer; absent means 0. */
  readonly epoch?: bigint;
  /** False when the client generated `producerName` itself; absent means true. */
  readonly userProvidedProducerName?: boolean;
  /** A {@link ProducerAccessMode} value; absent means Shared. */
  readonly producerAccessMode?: number;
  /** The topic epoch a reconnecting exclusive producer last received. */
  readonly topicEpoch?: bigint;
  readonly txnEnabled?: boolean;
  /** Subscription to create along with the topic. */
  readonly initialSubscriptionName?: string;
}

export const CommandProducerCodec = defineMessage<CommandProducer>("CommandProducer", {
  topic: required(1, string),
  producerId: required(2, uint64),
  requestId: required(3, uint64),
  producerName: optional(4, string),
  encrypted: optional(5, bool),
  metadata: repeated(6, KeyValueCodec),
  schema: optional(7, SchemaInfoCodec),
  epoch: optional(8, uint64),
  userProvidedProducerName: optional(9, bool),
  producerAccessMode: optional(10, protoEnum("ProducerAccessMode", ProducerAccessMode)),
  topicEpoch: optional(11, uint64),
  txnEnabled: optional(12, bool),
  initialSubscriptionName: optional(13, string),
});

/** PRODUCER_SUCCESS: the producer is open. */
export interface CommandProducerSuccess {
  readonly requestId: bigint;
  /** The producer's name (assigned by the broker when the client sent none). */
  readonly producerName: string;
  /** Last sequence id stored for this producer name (meaningful with deduplication); absent means -1. */
  readonly lastSequenceId?: bigint;
  readonly schemaVersion?: Uint8Array;
  /** Topic epoch granted to an exclusive producer. */
  readonly topicEpoch?: bigint;
  /** False while a WaitForExclusive producer is queued (another answer follows); absent means true. */
  readonly producerReady?: boolean;
}

export const CommandProducerSuccessCodec = defineMessage<CommandProducerSuccess>("CommandProducerSuccess", {
  requestId: required(1, uint64),
  producerName: required(2, string),
  lastSequenceId: optional(3, int64),
  schemaVersion: optional(4, bytes),
  topicEpoch: optional(5, uint64),
  producerReady: optional(6, bool),
});

/** CLOSE_PRODUCER: close a producer (from the broker: reconnect, possibly to `assignedBrokerServiceUrl`). */
export interface CommandCloseProducer {
  readonly producerId: bigint;
  readonly requestId: bigint;
  readonly assignedBrokerServiceUrl?: string;
  readonly assignedBrokerServiceUrlTls?: string;
}

export const CommandCloseProducerCodec = defineMessage<CommandCloseProducer>("CommandCloseProducer", {
  producerId: required(1, uint64),
  requestId: required(2, uint64),
  assignedBrokerServiceUrl: optional(3, string),
  assignedBrokerServiceUrlTls: optional(4, string),
});
