// MessageIdData: where a message lives. Ledger and entry ids are unsigned 64-bit (bigint); a message inside a batch
// adds its batch index, and batch-index acknowledgements carry the batch's ack set, a bitset of 64-bit words in
// which a set bit means "not yet acknowledged".
import { defineMessage, lazyMessage, type MessageSchema } from "../wire/message-schema.js";
import { int32, int64, uint64 } from "../wire/proto-type.js";
import { optional, repeated, required } from "../wire/field-spec.js";

/** Partition and batch index value meaning "none" (what an absent field defaults to). */
export const NO_INDEX = -1;

/** The position of a message: entry (ledger, entry), partition, and index inside a batch entry. */
export interface MessageIdData {
  readonly ledgerId: bigint;
  readonly entryId: bigint;
  /** Partition of a partitioned topic; absent means {@link NO_INDEX} (not partitioned). */
  readonly partition?: number;
  /** Index of the message inside its batch entry; absent means {@link NO_INDEX} (not in a batch). */
  readonly batchIndex?: number;
  /** Words of the batch's ack bitset (bit i of word i/64: message i not acknowledged yet). */
  readonly ackSet?: readonly bigint[];
  /** Number of messages in the batch entry. */
  readonly batchSize?: number;
  /** For the last chunk of a chunked message: the id of its first chunk. */
  readonly firstChunkMessageId?: MessageIdData;
}

export const MessageIdDataCodec: MessageSchema<MessageIdData> = defineMessage<MessageIdData>("MessageIdData", {
  ledgerId: required(1, uint64),
  entryId: required(2, uint64),
  partition: optional(3, int32),
  batchIndex: optional(4, int32),
  ackSet: repeated(5, int64),
  batchSize: optional(6, int32),
  firstChunkMessageId: optional(
    7,
    lazyMessage("MessageIdData", () => MessageIdDataCodec),
  ),
});
