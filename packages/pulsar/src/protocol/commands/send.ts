// Publishing: SEND (a payload command carrying one message or one batch) answered, in send order per producer, by
// SEND_RECEIPT or SEND_ERROR.
import { defineMessage } from "../wire/message-schema.js";
import { bool, int32, string, uint64 } from "../wire/proto-type.js";
import { optional, required } from "../wire/field-spec.js";
import { type MessageIdData, MessageIdDataCodec } from "../messages/message-id.js";
import { serverErrorType } from "../messages/server-error.js";

/** SEND: the message entry that follows the command is published by `producerId`. */
export interface CommandSend {
  readonly producerId: bigint;
  /** Sequence id of the (first) message. */
  readonly sequenceId: bigint;
  /** Number of messages in the entry; absent means 1. */
  readonly numMessages?: number;
  readonly txnidLeastBits?: bigint;
  readonly txnidMostBits?: bigint;
  /** Sequence id of the last message of a batch; absent means 0. */
  readonly highestSequenceId?: bigint;
  /** True for one chunk of a chunked message. */
  readonly isChunk?: boolean;
  /** True for an internal marker message. */
  readonly marker?: boolean;
  /** Id the message had on its source topic (replication to shadow topics). */
  readonly messageId?: MessageIdData;
}

export const CommandSendCodec = defineMessage<CommandSend>("CommandSend", {
  producerId: required(1, uint64),
  sequenceId: required(2, uint64),
  numMessages: optional(3, int32),
  txnidLeastBits: optional(4, uint64),
  txnidMostBits: optional(5, uint64),
  highestSequenceId: optional(6, uint64),
  isChunk: optional(7, bool),
  marker: optional(8, bool),
  messageId: optional(9, MessageIdDataCodec),
});

/** SEND_RECEIPT: the message (or batch) with `sequenceId` is stored at `messageId`. */
export interface CommandSendReceipt {
  readonly producerId: bigint;
  readonly sequenceId: bigint;
  readonly messageId?: MessageIdData;
  readonly highestSequenceId?: bigint;
}

export const CommandSendReceiptCodec = defineMessage<CommandSendReceipt>("CommandSendReceipt", {
  producerId: required(1, uint64),
  sequenceId: required(2, uint64),
  messageId: optional(3, MessageIdDataCodec),
  highestSequenceId: optional(4, uint64),
});

/** SEND_ERROR: the message with `sequenceId` was not stored. */
export interface CommandSendError {
  readonly producerId: bigint;
  readonly sequenceId: bigint;
  /** A ServerError value. */
  readonly error: number;
  readonly message: string;
}

export const CommandSendErrorCodec = defineMessage<CommandSendError>("CommandSendError", {
  producerId: required(1, uint64),
  sequenceId: required(2, uint64),
  error: required(3, serverErrorType),
  message: required(4, string),
});
