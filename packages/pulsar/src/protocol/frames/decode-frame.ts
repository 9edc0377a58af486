// Decodes one frame, as PulsarFrameDecoder returns it (without its totalSize field): the commandSize, the
// BaseCommand, and for payload commands the optional broker entry metadata and the message entry, whose checksum
// is verified. Structural faults (sizes that do not add up, truncation, a bad magic, malformed protobuf) are a
// DECODE_ERROR naming what and the byte offset counted from the start of the frame on the wire (its totalSize
// field is byte 0); a checksum mismatch is reported in the result. MessageMetadata is not decoded here: the
// caller decodes `metadataBytes` once it accepts the checksum. Every byte array in the result is a view of `frame`.
import { decodeError } from "../wire/codec-errors.js";
import { decodeBaseCommand } from "../commands/base-command.js";
import type { DecodedCommand } from "../commands/command-codecs.js";
import { type BrokerEntryMetadata, BrokerEntryMetadataCodec } from "../metadata/broker-entry-metadata.js";
import {
  BROKER_ENTRY_METADATA_MAGIC,
  COMMAND_SIZE_BYTES,
  MAGIC_BYTES,
  METADATA_SIZE_BYTES,
  TOTAL_SIZE_BYTES,
} from "./frame-layout.js";
import { readUint16, readUint32 } from "./big-endian.js";
import { type MessageEntryParts, splitMessageEntry } from "./message-entry.js";

/** The message entry a payload command carries, with what the broker put in front of it. */
export type FramePayload = MessageEntryParts & {
  /** Broker entry metadata (only on MESSAGE frames to consumers that negotiated it). */
  readonly brokerEntryMetadata?: BrokerEntryMetadata;
  /** The entry from its 0x0e01 magic to the end of the frame: the bytes a broker stores and delivers unchanged. */
  readonly entry: Uint8Array;
};

/** A decoded frame. */
export interface DecodedFrame {
  readonly command: DecodedCommand;
  /** Present exactly when bytes follow the command (SEND and MESSAGE frames). */
  readonly payload?: FramePayload;
}

/** Decodes a frame without its totalSize field. Throws DECODE_ERROR on structural faults (see the module comment). */
export function decodeFrame(frame: Uint8Array): DecodedFrame {
  if (frame.length < COMMAND_SIZE_BYTES) {
    throw decodeError("frame", TOTAL_SIZE_BYTES, `${String(frame.length)} byte(s) cannot hold the commandSize`);
  }
  const commandSize = readUint32(frame, 0);
  const commandEnd = COMMAND_SIZE_BYTES + commandSize;
  if (commandSize > frame.length - COMMAND_SIZE_BYTES) {
    throw decodeError(
      "frame",
      TOTAL_SIZE_BYTES,
      `commandSize ${String(commandSize)} exceeds the ${String(frame.length - COMMAND_SIZE_BYTES)} bytes after it`,
    );
  }
  const command = decodeBaseCommand(
    frame.subarray(COMMAND_SIZE_BYTES, commandEnd),
    TOTAL_SIZE_BYTES + COMMAND_SIZE_BYTES,
  );
  if (commandEnd === frame.length) return { command };
  return { command, payload: decodePayload(frame, commandEnd) };
}

function decodePayload(frame: Uint8Array, start: number): FramePayload {
  if (frame.length - start < MAGIC_BYTES) {
    throw decodeError(
      "payload",
      TOTAL_SIZE_BYTES + start,
      `${String(frame.length - start)} byte(s) cannot hold a magic number`,
    );
  }
  if (readUint16(frame, start) !== BROKER_ENTRY_METADATA_MAGIC) return withEntry(frame, start, undefined);
  const sizeAt = start + MAGIC_BYTES;
  if (frame.length - sizeAt < METADATA_SIZE_BYTES) {
    throw decodeError("broker entry metadata", TOTAL_SIZE_BYTES + start, "truncated before its size");
  }
  const size = readUint32(frame, sizeAt);
  const metadataAt = sizeAt + METADATA_SIZE_BYTES;
  if (size > frame.length - metadataAt) {
    throw decodeError(
      "broker entry metadata",
      TOTAL_SIZE_BYTES + sizeAt,
      `size ${String(size)} exceeds the ${String(frame.length - metadataAt)} bytes left`,
    );
  }
  const metadata = BrokerEntryMetadataCodec.decode(
    frame.subarray(metadataAt, metadataAt + size),
    TOTAL_SIZE_BYTES + metadataAt,
  );
  return withEntry(frame, metadataAt + size, metadata);
}

/** The payload whose message entry starts at `entryStart`. */
function withEntry(
  frame: Uint8Array,
  entryStart: number,
  brokerEntryMetadata: BrokerEntryMetadata | undefined,
): FramePayload {
  const entry = frame.subarray(entryStart);
  const parts = splitMessageEntry(entry, TOTAL_SIZE_BYTES + entryStart);
  return brokerEntryMetadata === undefined ? { ...parts, entry } : { ...parts, entry, brokerEntryMetadata };
}
