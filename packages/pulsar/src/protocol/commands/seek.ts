// Positioning: SEEK (move a subscription to a message id or a publish time; answered by SUCCESS, after which the
// broker closes the subscription's consumers) and GET_LAST_MESSAGE_ID with its response.
import { defineMessage } from "../wire/message-schema.js";
import { uint64 } from "../wire/proto-type.js";
import { optional, required } from "../wire/field-spec.js";
import { type MessageIdData, MessageIdDataCodec } from "../messages/message-id.js";

/** SEEK: reset the subscription of `consumerId` to `messageId` or to `messagePublishTime` (one of the two). */
export interface CommandSeek {
  readonly consumerId: bigint;
  readonly requestId: bigint;
  readonly messageId?: MessageIdData;
  /** Publish time in milliseconds since the epoch. */
  readonly messagePublishTime?: bigint;
}

export const CommandSeekCodec = defineMessage<CommandSeek>("CommandSeek", {
  consumerId: required(1, uint64),
  requestId: required(2, uint64),
  messageId: optional(3, MessageIdDataCodec),
  messagePublishTime: optional(4, uint64),
});

/** GET_LAST_MESSAGE_ID: what is the id of the topic's last message? */
export interface CommandGetLastMessageId {
  readonly consumerId: bigint;
  readonly requestId: bigint;
}

export const CommandGetLastMessageIdCodec = defineMessage<CommandGetLastMessageId>("CommandGetLastMessageId", {
  consumerId: required(1, uint64),
  requestId: required(2, uint64),
});

/** GET_LAST_MESSAGE_ID_RESPONSE. */
export interface CommandGetLastMessageIdResponse {
  readonly lastMessageId: MessageIdData;
  readonly requestId: bigint;
  /** The subscription's mark-delete position. */
  readonly consumerMarkDeletePosition?: MessageIdData;
}

export const CommandGetLastMessageIdResponseCodec = defineMessage<CommandGetLastMessageIdResponse>(
  "CommandGetLastMessageIdResponse",
  {
    lastMessageId: required(1, MessageIdDataCodec),
    requestId: required(2, uint64),
    consumerMarkDeletePosition: optional(3, MessageIdDataCodec),
  },
);
