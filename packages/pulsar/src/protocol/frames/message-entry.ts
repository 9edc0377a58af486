// The message entry of a payload command: `[0x0e01][crc32c u32][metadataSize u32][MessageMetadata][payload]`, the
// unit a broker stores byte-exact and delivers unchanged. `splitMessageEntry` checks the magic, then the checksum
// (CRC-32C over every byte after it), and only then trusts the metadata size; a checksum mismatch is reported as a
// value, not thrown, so that a broker can answer SEND_ERROR(ChecksumError) and keep the connection.
// `encodeMessageEntry` builds one (a client's SEND, or an entry synthesized by the broker). Split parts are views
// of the entry.
import { crc32c } from "@nereus/core";
import { decodeError } from "../wire/codec-errors.js";
import { type MessageMetadata, encodeMessageMetadata } from "../metadata/message-metadata.js";
import { readUint16, readUint32 } from "./big-endian.js";
import { CHECKSUM_BYTES, CHECKSUM_MAGIC, MAGIC_BYTES, METADATA_SIZE_BYTES, MIN_ENTRY_BYTES } from "./frame-layout.js";

const CHECKSUM_AT = MAGIC_BYTES;
const COVERED_FROM = MAGIC_BYTES + CHECKSUM_BYTES;
const METADATA_AT = COVERED_FROM + METADATA_SIZE_BYTES;

/** A message entry whose checksum matched, split into metadata and payload. */
export interface VerifiedEntryParts {
  readonly checksumMatches: true;
  readonly checksum: number;
  /** The encoded MessageMetadata (decode with `decodeMessageMetadata(metadataBytes, metadataOffset)`). */
  readonly metadataBytes: Uint8Array;
  /** Position of `metadataBytes` in the frame or buffer the entry was split from. */
  readonly metadataOffset: number;
  /** The message bytes (a batch payload when the metadata says so), possibly compressed or encrypted. */
  readonly payload: Uint8Array;
  readonly payloadOffset: number;
}

/** A message entry whose checksum did not match: nothing after the checksum can be trusted. */
export interface CorruptEntryParts {
  readonly checksumMatches: false;
  /** The checksum the entry carries. */
  readonly checksum: number;
  /** The checksum of the bytes it covers. */
  readonly computedChecksum: number;
}

export type MessageEntryParts = VerifiedEntryParts | CorruptEntryParts;

/**
 * Checks and splits a message entry (`offset`: its position in the enclosing frame or buffer, for errors). Throws
 * DECODE_ERROR when it is too short, lacks the 0x0e01 magic, or (with a matching checksum) declares more metadata
 * than it holds.
 */
export function splitMessageEntry(entry: Uint8Array, offset = 0): MessageEntryParts {
  if (entry.length < MIN_ENTRY_BYTES) {
    throw decodeError(
      "message entry",
      offset,
      `${String(entry.length)} byte(s) cannot hold magic, checksum and metadata size`,
    );
  }
  const magic = readUint16(entry, 0);
  if (magic !== CHECKSUM_MAGIC) {
    throw decodeError("message entry", offset, `magic 0x${magic.toString(16).padStart(4, "0")} is not 0x0e01`);
  }
  const checksum = readUint32(entry, CHECKSUM_AT);
  const computedChecksum = crc32c(entry.subarray(COVERED_FROM));
  if (checksum !== computedChecksum) return { checksumMatches: false, checksum, computedChecksum };
  const metadataSize = readUint32(entry, COVERED_FROM);
  const metadataEnd = METADATA_AT + metadataSize;
  if (metadataSize > entry.length - METADATA_AT) {
    throw decodeError(
      "message entry",
      offset + COVERED_FROM,
      `metadataSize ${String(metadataSize)} exceeds the ${String(entry.length - METADATA_AT)} bytes left`,
    );
  }
  return {
    checksumMatches: true,
    checksum,
    metadataBytes: entry.subarray(METADATA_AT, metadataEnd),
    metadataOffset: offset + METADATA_AT,
    payload: entry.subarray(metadataEnd),
    payloadOffset: offset + metadataEnd,
  };
}

/** Builds the message entry of `metadata` and `payload`, checksum included. Throws INVALID_ARGUMENT on bad metadata. */
export function encodeMessageEntry(metadata: MessageMetadata, payload: Uint8Array): Uint8Array {
  const metadataBytes = encodeMessageMetadata(metadata);
  const entry = new Uint8Array(METADATA_AT + metadataBytes.length + payload.length);
  const view = new DataView(entry.buffer);
  view.setUint16(0, CHECKSUM_MAGIC);
  view.setUint32(COVERED_FROM, metadataBytes.length);
  entry.set(metadataBytes, METADATA_AT);
  entry.set(payload, METADATA_AT + metadataBytes.length);
  view.setUint32(CHECKSUM_AT, crc32c(entry.subarray(COVERED_FROM)));
  return entry;
}
