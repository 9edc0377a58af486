// Encodes frames: a simple command, or a payload command followed by a message entry (the stored bytes, passed
// through unchanged) and, for consumers that negotiated it, broker entry metadata in front of the entry. For
// delivery without copying the entry, `encodePayloadFrameHead` returns everything before it; write the head, then
// the entry. Returned arrays are fresh and owned by the caller.
import { invalidValue } from "../wire/codec-errors.js";
import { encodeWith } from "../wire/pooled-writer.js";
import { writeBaseCommand } from "../commands/base-command.js";
import type { PulsarCommand } from "../commands/command-codecs.js";
import { type BrokerEntryMetadata, BrokerEntryMetadataCodec } from "../metadata/broker-entry-metadata.js";
import {
  BROKER_ENTRY_METADATA_MAGIC,
  COMMAND_SIZE_BYTES,
  MAGIC_BYTES,
  METADATA_SIZE_BYTES,
  TOTAL_SIZE_BYTES,
} from "./frame-layout.js";

/** Options of a payload frame. */
export interface PayloadFrameOptions {
  /** Broker entry metadata to put in front of the entry (only for consumers that negotiated it). */
  readonly brokerEntryMetadata?: BrokerEntryMetadata;
}

/** The frame of a command without payload. Throws INVALID_ARGUMENT for an unencodable command. */
export function encodeCommandFrame(command: PulsarCommand): Uint8Array {
  return encodeHead(command, 0, undefined);
}

/**
 * Everything of a payload frame before its message entry of `entryLength` bytes: totalSize, commandSize, the
 * command and the optional broker entry metadata. The caller writes the entry right after it.
 */
export function encodePayloadFrameHead(
  command: PulsarCommand,
  entryLength: number,
  options: PayloadFrameOptions = {},
): Uint8Array {
  if (!Number.isSafeInteger(entryLength) || entryLength < 0) {
    throw invalidValue("payload frame", "entry length", entryLength, "not a byte count");
  }
  return encodeHead(command, entryLength, options.brokerEntryMetadata);
}

/** The whole frame of a payload command carrying `entry` (a message entry, from its 0x0e01 magic on). */
export function encodePayloadFrame(
  command: PulsarCommand,
  entry: Uint8Array,
  options: PayloadFrameOptions = {},
): Uint8Array {
  const head = encodePayloadFrameHead(command, entry.length, options);
  const frame = new Uint8Array(head.length + entry.length);
  frame.set(head);
  frame.set(entry, head.length);
  return frame;
}

const SIZE_FIELDS = new Uint8Array(TOTAL_SIZE_BYTES + COMMAND_SIZE_BYTES);
const SIZES_BYTES = TOTAL_SIZE_BYTES + COMMAND_SIZE_BYTES;

function encodeHead(
  command: PulsarCommand,
  trailingBytes: number,
  brokerEntryMetadata: BrokerEntryMetadata | undefined,
): Uint8Array {
  const encoded = encodeWith((writer) => {
    writer.raw(SIZE_FIELDS);
    writeBaseCommand(writer, command);
  });
  const commandSize = encoded.length - SIZES_BYTES;
  const metadataBytes =
    brokerEntryMetadata === undefined ? undefined : BrokerEntryMetadataCodec.encode(brokerEntryMetadata);
  const head = metadataBytes === undefined ? encoded : withBrokerEntryMetadata(encoded, metadataBytes);
  const totalSize = head.length - TOTAL_SIZE_BYTES + trailingBytes;
  if (totalSize > 0xffff_ffff) throw invalidValue("frame", "totalSize", totalSize, "above 2^32-1");
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  view.setUint32(0, totalSize);
  view.setUint32(TOTAL_SIZE_BYTES, commandSize);
  return head;
}

/** `sizesAndCommand` followed by the magic, size and bytes of broker entry metadata. */
function withBrokerEntryMetadata(sizesAndCommand: Uint8Array, metadataBytes: Uint8Array): Uint8Array {
  const at = sizesAndCommand.length;
  const head = new Uint8Array(at + MAGIC_BYTES + METADATA_SIZE_BYTES + metadataBytes.length);
  head.set(sizesAndCommand);
  const view = new DataView(head.buffer);
  view.setUint16(at, BROKER_ENTRY_METADATA_MAGIC);
  view.setUint32(at + MAGIC_BYTES, metadataBytes.length);
  head.set(metadataBytes, at + MAGIC_BYTES + METADATA_SIZE_BYTES);
  return head;
}
