// SingleMessageMetadata: the per-message header inside an uncompressed batch payload, in front of each message's
// bytes. It carries the message's own key, properties, event time and sequence id, and its payload size.
import { defineMessage } from "../wire/message-schema.js";
import { bool, bytes, int32, string, uint64 } from "../wire/proto-type.js";
import { optional, repeated, required } from "../wire/field-spec.js";
import { type KeyValue, KeyValueCodec } from "../messages/key-value.js";

/** The metadata of one message inside a batch. */
export interface SingleMessageMetadata {
  readonly properties?: readonly KeyValue[];
  readonly partitionKey?: string;
  /** Length of the message bytes that follow this metadata. */
  readonly payloadSize: number;
  /** True when compaction removed the message (its bytes are still there). */
  readonly compactedOut?: boolean;
  /** Application event time in milliseconds; absent means 0. */
  readonly eventTime?: bigint;
  readonly partitionKeyB64Encoded?: boolean;
  /** Key for Key_Shared dispatch, overriding `partitionKey`. */
  readonly orderingKey?: Uint8Array;
  readonly sequenceId?: bigint;
  readonly nullValue?: boolean;
  readonly nullPartitionKey?: boolean;
}

export const SingleMessageMetadataCodec = defineMessage<SingleMessageMetadata>("SingleMessageMetadata", {
  properties: repeated(1, KeyValueCodec),
  partitionKey: optional(2, string),
  payloadSize: required(3, int32),
  compactedOut: optional(4, bool),
  eventTime: optional(5, uint64),
  partitionKeyB64Encoded: optional(6, bool),
  orderingKey: optional(7, bytes),
  sequenceId: optional(8, uint64),
  nullValue: optional(9, bool),
  nullPartitionKey: optional(10, bool),
});
