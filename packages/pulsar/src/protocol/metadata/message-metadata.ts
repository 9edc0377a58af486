// MessageMetadata: the header of every stored Pulsar entry (one message, or one batch of messages sharing it). It
// is never compressed, so a broker reads what it needs from it (message count, producer and sequence ids for
// deduplication, publish time, keys for Key_Shared, delayed delivery, markers, transactions, chunks, whether the
// payload is encrypted) without touching the payload. Batches are recognised by the presence of
// `numMessagesInBatch`, which clients test, so it must stay absent on single messages.
import { defineMessage } from "../wire/message-schema.js";
import { protoEnum } from "../wire/proto-enum.js";
import { bool, bytes, int32, int64, string, uint32, uint64 } from "../wire/proto-type.js";
import { optional, repeated, required } from "../wire/field-spec.js";
import { type KeyValue, KeyValueCodec } from "../messages/key-value.js";

/** Payload compression codecs, by name. */
export const CompressionType = {
  NONE: 0,
  /** A raw LZ4 block (its size is `uncompressedSize`). */
  LZ4: 1,
  /** zlib format. */
  ZLIB: 2,
  /** A zstd frame. */
  ZSTD: 3,
  /** A raw snappy block. */
  SNAPPY: 4,
} as const;

/** One encrypted data key of an encrypted message. */
export interface EncryptionKeys {
  readonly key: string;
  readonly value: Uint8Array;
  readonly metadata?: readonly KeyValue[];
}

const EncryptionKeysCodec = defineMessage<EncryptionKeys>("EncryptionKeys", {
  key: required(1, string),
  value: required(2, bytes),
  metadata: repeated(3, KeyValueCodec),
});

/** The metadata of one entry. Optional fields keep their presence; their proto defaults are noted. */
export interface MessageMetadata {
  readonly producerName: string;
  /** Sequence id of the (first) message. */
  readonly sequenceId: bigint;
  /** Milliseconds since the epoch when the client published it. */
  readonly publishTime: bigint;
  readonly properties?: readonly KeyValue[];
  /** Source cluster of a geo-replicated message. */
  readonly replicatedFrom?: string;
  /** Routing key (also the Key_Shared key unless `orderingKey` is set). */
  readonly partitionKey?: string;
  /** Clusters to replicate to, overriding the namespace. */
  readonly replicateTo?: readonly string[];
  /** A {@link CompressionType} value; absent means NONE. */
  readonly compression?: number;
  /** Payload size before compression; absent means 0. */
  readonly uncompressedSize?: number;
  /** Present exactly on batches: the number of messages in the batch. */
  readonly numMessagesInBatch?: number;
  /** Application event time in milliseconds; absent means 0 (use `publishTime`). */
  readonly eventTime?: bigint;
  /** Present (non-empty) exactly when the payload is encrypted. */
  readonly encryptionKeys?: readonly EncryptionKeys[];
  readonly encryptionAlgo?: string;
  readonly encryptionParam?: Uint8Array;
  readonly schemaVersion?: Uint8Array;
  /** True when `partitionKey` holds base64 of binary key bytes. */
  readonly partitionKeyB64Encoded?: boolean;
  /** Key for Key_Shared dispatch, overriding `partitionKey`. */
  readonly orderingKey?: Uint8Array;
  /** Deliver no earlier than this time (milliseconds since the epoch). */
  readonly deliverAtTime?: bigint;
  /** Internal marker kind (replicated subscription snapshots, transaction markers); never dispatched. */
  readonly markerType?: number;
  readonly txnidLeastBits?: bigint;
  readonly txnidMostBits?: bigint;
  /** Sequence id of the last message of a batch; absent means 0. */
  readonly highestSequenceId?: bigint;
  /** True when the message has no value (a tombstone). */
  readonly nullValue?: boolean;
  /** Id shared by the chunks of one chunked message. */
  readonly uuid?: string;
  readonly numChunksFromMsg?: number;
  readonly totalChunkMsgSize?: number;
  readonly chunkId?: number;
  /** True when the message has no key. */
  readonly nullPartitionKey?: boolean;
  /** Batch indexes kept by compaction (the payload holds only these messages). */
  readonly compactedBatchIndexes?: readonly number[];
}

export const MessageMetadataCodec = defineMessage<MessageMetadata>("MessageMetadata", {
  producerName: required(1, string),
  sequenceId: required(2, uint64),
  publishTime: required(3, uint64),
  properties: repeated(4, KeyValueCodec),
  replicatedFrom: optional(5, string),
  partitionKey: optional(6, string),
  replicateTo: repeated(7, string),
  compression: optional(8, protoEnum("CompressionType", CompressionType)),
  uncompressedSize: optional(9, uint32),
  numMessagesInBatch: optional(11, int32),
  eventTime: optional(12, uint64),
  encryptionKeys: repeated(13, EncryptionKeysCodec),
  encryptionAlgo: optional(14, string),
  encryptionParam: optional(15, bytes),
  schemaVersion: optional(16, bytes),
  partitionKeyB64Encoded: optional(17, bool),
  orderingKey: optional(18, bytes),
  deliverAtTime: optional(19, int64),
  markerType: optional(20, int32),
  txnidLeastBits: optional(22, uint64),
  txnidMostBits: optional(23, uint64),
  highestSequenceId: optional(24, uint64),
  nullValue: optional(25, bool),
  uuid: optional(26, string),
  numChunksFromMsg: optional(27, int32),
  totalChunkMsgSize: optional(28, int32),
  chunkId: optional(29, int32),
  nullPartitionKey: optional(30, bool),
  compactedBatchIndexes: repeated(31, int32),
});

/** Decodes MessageMetadata bytes (`offset`: their position in the frame, for errors). Throws DECODE_ERROR. */
export function decodeMessageMetadata(bytes: Uint8Array, offset = 0): MessageMetadata {
  return MessageMetadataCodec.decode(bytes, offset);
}

/** Encodes MessageMetadata. Throws INVALID_ARGUMENT for a value a field cannot carry. */
export function encodeMessageMetadata(metadata: MessageMetadata): Uint8Array {
  return MessageMetadataCodec.encode(metadata);
}
