// Consumer lifecycle: SUBSCRIBE (open consumer `consumerId` on a subscription) answered by SUCCESS or ERROR,
// UNSUBSCRIBE (delete the subscription) and CLOSE_CONSUMER (client close, or broker-initiated "reconnect").
import { defineMessage } from "../wire/message-schema.js";
import { protoEnum } from "../wire/proto-enum.js";
import { bool, int32, string, uint64 } from "../wire/proto-type.js";
import { optional, repeated, required } from "../wire/field-spec.js";
import { type KeySharedMeta, KeySharedMetaCodec } from "../messages/key-shared-meta.js";
import { type KeyValue, KeyValueCodec } from "../messages/key-value.js";
import { type MessageIdData, MessageIdDataCodec } from "../messages/message-id.js";
import { type SchemaInfo, SchemaInfoCodec } from "../messages/schema-info.js";

/** Subscription types, by name. */
export const SubscriptionType = {
  /** One consumer at a time. */
  Exclusive: 0,
  /** Messages spread over all consumers. */
  Shared: 1,
  /** One active consumer, the others standing by. */
  Failover: 2,
  /** Messages spread by key, each key to one consumer at a time. */
  Key_Shared: 3,
} as const;

/** Where a new subscription starts, by name. */
export const InitialPosition = { Latest: 0, Earliest: 1 } as const;

/** SUBSCRIBE: open consumer `consumerId` (chosen by the client) on `subscription` of `topic`. */
export interface CommandSubscribe {
  readonly topic: string;
  readonly subscription: string;
  /** A {@link SubscriptionType} value. */
  readonly subType: number;
  readonly consumerId: bigint;
  readonly requestId: bigint;
  readonly consumerName?: string;
  /** Dispatch priority (lower first) for Shared subscriptions. */
  readonly priorityLevel?: number;
  /** False for a non-durable subscription (a reader); absent means true. */
  readonly durable?: boolean;
  /** For non-durable subscriptions: the position to start from. */
  readonly startMessageId?: MessageIdData;
  readonly metadata?: readonly KeyValue[];
  readonly readCompacted?: boolean;
  readonly schema?: SchemaInfo;
  /** An {@link InitialPosition} value for a new subscription; absent means Latest. */
  readonly initialPosition?: number;
  readonly replicateSubscriptionState?: boolean;
  /** False fails the subscribe when the topic does not exist; absent means true. */
  readonly forceTopicCreation?: boolean;
  /** Rewind the start position by this many seconds of publish time; absent means 0. */
  readonly startMessageRollbackDurationSec?: bigint;
  readonly keySharedMeta?: KeySharedMeta;
  readonly subscriptionProperties?: readonly KeyValue[];
  /** Epoch of the consumer's view, raised by each redelivery request of Exclusive and Failover consumers. */
  readonly consumerEpoch?: bigint;
}

export const CommandSubscribeCodec = defineMessage<CommandSubscribe>("CommandSubscribe", {
  topic: required(1, string),
  subscription: required(2, string),
  subType: required(3, protoEnum("CommandSubscribe.SubType", SubscriptionType)),
  consumerId: required(4, uint64),
  requestId: required(5, uint64),
  consumerName: optional(6, string),
  priorityLevel: optional(7, int32),
  durable: optional(8, bool),
  startMessageId: optional(9, MessageIdDataCodec),
  metadata: repeated(10, KeyValueCodec),
  readCompacted: optional(11, bool),
  schema: optional(12, SchemaInfoCodec),
  initialPosition: optional(13, protoEnum("CommandSubscribe.InitialPosition", InitialPosition)),
  replicateSubscriptionState: optional(14, bool),
  forceTopicCreation: optional(15, bool),
  startMessageRollbackDurationSec: optional(16, uint64),
  keySharedMeta: optional(17, KeySharedMetaCodec),
  subscriptionProperties: repeated(18, KeyValueCodec),
  consumerEpoch: optional(19, uint64),
});

/** UNSUBSCRIBE: delete the consumer's subscription. */
export interface CommandUnsubscribe {
  readonly consumerId: bigint;
  readonly requestId: bigint;
  /** True deletes the subscription even with other consumers connected. */
  readonly force?: boolean;
}

export const CommandUnsubscribeCodec = defineMessage<CommandUnsubscribe>("CommandUnsubscribe", {
  consumerId: required(1, uint64),
  requestId: required(2, uint64),
  force: optional(3, bool),
});

/** CLOSE_CONSUMER: close a consumer (from the broker: reconnect, possibly to `assignedBrokerServiceUrl`). */
export interface CommandCloseConsumer {
  readonly consumerId: bigint;
  readonly requestId: bigint;
  readonly assignedBrokerServiceUrl?: string;
  readonly assignedBrokerServiceUrlTls?: string;
}

export const CommandCloseConsumerCodec = defineMessage<CommandCloseConsumer>("CommandCloseConsumer", {
  consumerId: required(1, uint64),
  requestId: required(2, uint64),
  assignedBrokerServiceUrl: optional(3, string),
  assignedBrokerServiceUrlTls: optional(4, string),
});
