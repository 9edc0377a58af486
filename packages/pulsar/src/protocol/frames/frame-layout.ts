// The byte layout of Pulsar frames, shared by the frame decoder and encoders:
//
//   simple command:  [totalSize u32][commandSize u32][BaseCommand]
//   payload command: [totalSize u32][commandSize u32][BaseCommand]
//                    ([0x0e02 u16][brokerEntryMetadataSize u32][BrokerEntryMetadata])   broker → client, optional
//                    [0x0e01 u16][checksum u32][metadataSize u32][MessageMetadata][payload]
//
// All sizes are unsigned big-endian. totalSize counts every byte after itself; the checksum is CRC-32C over every
// byte after it (metadataSize, metadata and payload). The part from 0x0e01 to the end is the message entry a broker
// stores byte-exact and delivers as it came.

/** Bytes of the totalSize field in front of every frame. */
export const TOTAL_SIZE_BYTES = 4;
/** Bytes of the commandSize field. */
export const COMMAND_SIZE_BYTES = 4;
/** Magic number that opens the checksummed message entry. */
export const CHECKSUM_MAGIC = 0x0e01;
/** Magic number that opens optional broker entry metadata in front of the message entry. */
export const BROKER_ENTRY_METADATA_MAGIC = 0x0e02;
export const MAGIC_BYTES = 2;
export const CHECKSUM_BYTES = 4;
export const METADATA_SIZE_BYTES = 4;
/** Smallest message entry: magic, checksum and metadata size (an empty metadata cannot be valid, but is framed). */
export const MIN_ENTRY_BYTES = MAGIC_BYTES + CHECKSUM_BYTES + METADATA_SIZE_BYTES;

/** Pulsar's default largest message (CONNECTED.maxMessageSize): 5 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 5 * 1024 * 1024;
/** Room Pulsar allows in a frame beyond the message size for the command and headers: 10 KiB. */
export const FRAME_PADDING_BYTES = 10 * 1024;
/** Default largest frame, counting its totalSize field: the default message size plus padding. */
export const DEFAULT_MAX_FRAME_BYTES = DEFAULT_MAX_MESSAGE_BYTES + FRAME_PADDING_BYTES;
