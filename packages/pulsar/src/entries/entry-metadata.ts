// What the broker reads from a stored Pulsar entry without touching its payload: the MessageMetadata in front of
// it (message count, producer and sequence ids, publish time, keys, delayed delivery, markers, transactions,
// chunks, encryption). `parseEntryMetadata` reads it from the stored bytes `[0x0e01][crc32c][metadataSize]
// [MessageMetadata][payload]` without recomputing the checksum (it was verified when the entry was sent, and the
// storage core checks its own); `describeEntry` derives the same fields from metadata the SEND path decoded
// already. Sequence ids are read as the signed 64-bit values clients mean (-1: none). Byte fields are views.
import { ErrorCode, NereusError } from "@nereus/core";
import { CHECKSUM_MAGIC, type MessageMetadata, decodeMessageMetadata } from "../protocol/index.js";
import { CHECKSUM_BYTES, MAGIC_BYTES, METADATA_SIZE_BYTES } from "../protocol/frames/frame-layout.js";

const METADATA_SIZE_AT = MAGIC_BYTES + CHECKSUM_BYTES;
const METADATA_AT = METADATA_SIZE_AT + METADATA_SIZE_BYTES;

/** The broker's view of one entry (a message, or a batch of messages sharing one metadata). */
export interface EntryMetadata {
  /** The decoded metadata; its byte fields are views of the entry. */
  readonly metadata: MessageMetadata;
  /** Messages in the entry: `numMessagesInBatch` on a batch, else 1. Flow permits and backlogs count these. */
  readonly numberOfMessages: number;
  /** True when the entry is a batch (`numMessagesInBatch` present, even with one message). */
  readonly isBatch: boolean;
  readonly producerName: string;
  /** Sequence id of the first message. */
  readonly sequenceId: bigint;
  /** Sequence id of the last message: max(sequenceId, highestSequenceId), what deduplication remembers. */
  readonly lastSequenceId: bigint;
  /** Client publish time, milliseconds since the epoch. */
  readonly publishTime: bigint;
  /** Earliest delivery time (milliseconds since the epoch) of a delayed message. */
  readonly deliverAtTime: bigint | undefined;
  /** True for internal markers (never dispatched to consumers). */
  readonly isMarker: boolean;
  readonly isEncrypted: boolean;
  /** True when the entry is one chunk of a chunked message. */
  readonly isChunk: boolean;
  /** True when the entry belongs to a transaction. */
  readonly inTransaction: boolean;
  /** Where the payload starts in the entry. */
  readonly payloadOffset: number;
}

function decodeFailure(reason: string, cause?: unknown): NereusError {
  return new NereusError(ErrorCode.DECODE_ERROR, `stored Pulsar entry: ${reason}`, { retryable: false, cause });
}

/** The fields of an entry with `metadata` whose payload starts at `payloadOffset`. DECODE_ERROR on a negative count. */
export function describeEntry(metadata: MessageMetadata, payloadOffset: number): EntryMetadata {
  const count = metadata.numMessagesInBatch;
  if (count !== undefined && count < 0) throw decodeFailure(`negative message count ${String(count)}`);
  const sequenceId = BigInt.asIntN(64, metadata.sequenceId);
  const highest = metadata.highestSequenceId === undefined ? sequenceId : BigInt.asIntN(64, metadata.highestSequenceId);
  return {
    metadata,
    numberOfMessages: count ?? 1,
    isBatch: count !== undefined,
    producerName: metadata.producerName,
    sequenceId,
    lastSequenceId: highest > sequenceId ? highest : sequenceId,
    publishTime: metadata.publishTime,
    deliverAtTime: metadata.deliverAtTime,
    isMarker: metadata.markerType !== undefined,
    isEncrypted: (metadata.encryptionKeys?.length ?? 0) > 0,
    isChunk: metadata.uuid !== undefined && (metadata.numChunksFromMsg ?? 0) > 1,
    inTransaction: metadata.txnidMostBits !== undefined || metadata.txnidLeastBits !== undefined,
    payloadOffset,
  };
}

/**
 * Reads the metadata of a stored entry. Throws DECODE_ERROR when the entry lacks the 0x0e01 magic, declares more
 * metadata than it holds, or its metadata is malformed. The checksum is not recomputed.
 */
export function parseEntryMetadata(entry: Uint8Array): EntryMetadata {
  if (entry.length < METADATA_AT) throw decodeFailure(`${String(entry.length)} byte(s) cannot hold its header`);
  const view = new DataView(entry.buffer, entry.byteOffset, entry.byteLength);
  const magic = view.getUint16(0);
  if (magic !== CHECKSUM_MAGIC) throw decodeFailure(`magic 0x${magic.toString(16).padStart(4, "0")} is not 0x0e01`);
  const size = view.getUint32(METADATA_SIZE_AT);
  if (size > entry.length - METADATA_AT) {
    throw decodeFailure(`metadata size ${String(size)} exceeds the ${String(entry.length - METADATA_AT)} bytes left`);
  }
  const metadata = decodeMessageMetadata(entry.subarray(METADATA_AT, METADATA_AT + size), METADATA_AT);
  return describeEntry(metadata, METADATA_AT + size);
}
