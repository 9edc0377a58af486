// Acknowledgements: ACK (individual ids, or one cumulative id) and ACK_RESPONSE, the receipt a broker sends when the
// ACK carried a request id.
import { defineMessage } from "../wire/message-schema.js";
import { protoEnum } from "../wire/proto-enum.js";
import { string, uint64 } from "../wire/proto-type.js";
import { optional, repeated, required } from "../wire/field-spec.js";
import { type KeyLongValue, KeyLongValueCodec } from "../messages/key-value.js";
import { type MessageIdData, MessageIdDataCodec } from "../messages/message-id.js";
import { serverErrorType } from "../messages/server-error.js";

/** Ack types, by name. */
export const AckType = {
  /** Each listed message (with an ack set: the listed batch indexes). */
  Individual: 0,
  /** Everything up to and including the one listed message. */
  Cumulative: 1,
} as const;

/** Why a client acknowledges a message it could not use, by name. */
export const AckValidationError = {
  UncompressedSizeCorruption: 0,
  DecompressionError: 1,
  ChecksumMismatch: 2,
  BatchDeSerializeError: 3,
  DecryptionError: 4,
} as const;

/** ACK: acknowledge messages of `consumerId`'s subscription. */
export interface CommandAck {
  readonly consumerId: bigint;
  /** An {@link AckType} value. */
  readonly ackType: number;
  /** The acknowledged ids (exactly one for a cumulative ack). */
  readonly messageId?: readonly MessageIdData[];
  /** An {@link AckValidationError} value: the client discarded the message as invalid. */
  readonly validationError?: number;
  readonly properties?: readonly KeyLongValue[];
  readonly txnidLeastBits?: bigint;
  readonly txnidMostBits?: bigint;
  /** Present when the client wants an ACK_RESPONSE. */
  readonly requestId?: bigint;
}

export const CommandAckCodec = defineMessage<CommandAck>("CommandAck", {
  consumerId: required(1, uint64),
  ackType: required(2, protoEnum("CommandAck.AckType", AckType)),
  messageId: repeated(3, MessageIdDataCodec),
  validationError: optional(4, protoEnum("CommandAck.ValidationError", AckValidationError)),
  properties: repeated(5, KeyLongValueCodec),
  txnidLeastBits: optional(6, uint64),
  txnidMostBits: optional(7, uint64),
  requestId: optional(8, uint64),
});

/** ACK_RESPONSE: the ACK with `requestId` is applied (or failed with `error`). */
export interface CommandAckResponse {
  readonly consumerId: bigint;
  readonly txnidLeastBits?: bigint;
  readonly txnidMostBits?: bigint;
  /** A ServerError value, on failure. */
  readonly error?: number;
  readonly message?: string;
  readonly requestId?: bigint;
}

export const CommandAckResponseCodec = defineMessage<CommandAckResponse>("CommandAckResponse", {
  consumerId: required(1, uint64),
  txnidLeastBits: optional(2, uint64),
  txnidMostBits: optional(3, uint64),
  error: optional(4, serverErrorType),
  message: optional(5, string),
  requestId: optional(6, uint64),
});
