// Delivery to consumers: FLOW (the consumer grants permits), MESSAGE (a payload command carrying one stored entry),
// REDELIVER_UNACKNOWLEDGED_MESSAGES (negative acks and ack timeouts), and the broker's notices
// ACTIVE_CONSUMER_CHANGE and REACHED_END_OF_TOPIC.
import { defineMessage } from "../wire/message-schema.js";
import { bool, int64, uint32, uint64 } from "../wire/proto-type.js";
import { optional, repeated, required } from "../wire/field-spec.js";
import { type MessageIdData, MessageIdDataCodec } from "../messages/message-id.js";

/** FLOW: the consumer can take `messagePermits` more messages (a batch entry costs one per message). */
export interface CommandFlow {
  readonly consumerId: bigint;
  readonly messagePermits: number;
}

export const CommandFlowCodec = defineMessage<CommandFlow>("CommandFlow", {
  consumerId: required(1, uint64),
  messagePermits: required(2, uint32),
});

/** MESSAGE: the entry that follows the command is delivered to `consumerId`. */
export interface CommandMessage {
  readonly consumerId: bigint;
  readonly messageId: MessageIdData;
  /** Times this entry was delivered before; absent means 0. */
  readonly redeliveryCount?: number;
  /** Ack bitset of a partly acknowledged batch (set bit: still to deliver). */
  readonly ackSet?: readonly bigint[];
  readonly consumerEpoch?: bigint;
}

export const CommandMessageCodec = defineMessage<CommandMessage>("CommandMessage", {
  consumerId: required(1, uint64),
  messageId: required(2, MessageIdDataCodec),
  redeliveryCount: optional(3, uint32),
  ackSet: repeated(4, int64),
  consumerEpoch: optional(5, uint64),
});

/** REDELIVER_UNACKNOWLEDGED_MESSAGES: deliver these messages again (all unacknowledged ones when none are listed). */
export interface CommandRedeliverUnacknowledgedMessages {
  readonly consumerId: bigint;
  readonly messageIds?: readonly MessageIdData[];
  readonly consumerEpoch?: bigint;
}

export const CommandRedeliverUnacknowledgedMessagesCodec = defineMessage<CommandRedeliverUnacknowledgedMessages>(
  "CommandRedeliverUnacknowledgedMessages",
  {
    consumerId: required(1, uint64),
    messageIds: repeated(2, MessageIdDataCodec),
    consumerEpoch: optional(3, uint64),
  },
);

/** ACTIVE_CONSUMER_CHANGE: tells a Failover or Exclusive consumer whether it is now the active one. */
export interface CommandActiveConsumerChange {
  readonly consumerId: bigint;
  /** Absent means false. */
  readonly isActive?: boolean;
}

export const CommandActiveConsumerChangeCodec = defineMessage<CommandActiveConsumerChange>(
  "CommandActiveConsumerChange",
  {
    consumerId: required(1, uint64),
    isActive: optional(2, bool),
  },
);

/** REACHED_END_OF_TOPIC: the topic is terminated and the consumer has received everything. */
export interface CommandReachedEndOfTopic {
  readonly consumerId: bigint;
}

export const CommandReachedEndOfTopicCodec = defineMessage<CommandReachedEndOfTopic>("CommandReachedEndOfTopic", {
  consumerId: required(1, uint64),
});
