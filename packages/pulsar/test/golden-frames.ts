// Golden frames shared by the frame tests, each derived by hand from the wire rules: sizes are big-endian u32,
// protobuf tags are `field << 3 | wire type`. The one checksum, CRC-32C of the 14 bytes
// `00000008 0a0170 1000 18e807 6869`, is 0x16f2f2f7 by both @nereus/core and pulsar-flex's independent CRC code.
import type { PulsarCommand } from "../src/protocol/commands/command-codecs.js";
import type { MessageMetadata } from "../src/protocol/metadata/message-metadata.js";
import { hex } from "./hex.js";

/** PING: a simple command of 5 bytes, so totalSize 9. */
export const PING_FRAME = hex("00000009 00000005  0812 920100");
export const PING: PulsarCommand = { type: "PING", body: {} };

/** CONNECT { clientVersion "ts", protocolVersion 21 }: a 10-byte command, totalSize 14. */
export const CONNECT_FRAME = hex("0000000e 0000000a  0802 1206 0a027473 2015");
export const CONNECT: PulsarCommand = { type: "CONNECT", body: { clientVersion: "ts", protocolVersion: 21 } };

/** The metadata and payload of the message entry in the payload frames below. */
export const ENTRY_METADATA: MessageMetadata = { producerName: "p", sequenceId: 0n, publishTime: 1000n };
export const ENTRY_PAYLOAD = hex("6869");
/** The message entry: magic, checksum, metadata size 8, metadata (0a0170 1000 18e807), payload "hi". */
export const ENTRY = hex("0e01 16f2f2f7 00000008 0a0170 1000 18e807 6869");

/** SEND { producerId 1, sequenceId 0 } (8-byte command) + the entry (20 bytes): totalSize 32. */
export const SEND_FRAME = hex("00000020 00000008  0806 3204 0801 1000  0e01 16f2f2f7 00000008 0a0170 1000 18e807 6869");
export const SEND: PulsarCommand = { type: "SEND", body: { producerId: 1n, sequenceId: 0n } };

/**
 * MESSAGE { consumerId 1, messageId { ledgerId 3, entryId 4 } } (12-byte command), broker entry metadata
 * { brokerTimestamp 5, index 6 } (magic 0e02, size 4, 08 05 10 06), then the entry: totalSize 46.
 */
export const MESSAGE_FRAME = hex(
  "0000002e 0000000c  0809 4a08 0801 1204 0803 1004  0e02 00000004 0805 1006  " +
    "0e01 16f2f2f7 00000008 0a0170 1000 18e807 6869",
);
export const MESSAGE: PulsarCommand = {
  type: "MESSAGE",
  body: { consumerId: 1n, messageId: { ledgerId: 3n, entryId: 4n } },
};
export const MESSAGE_BROKER_METADATA = { brokerTimestamp: 5n, index: 6n };
