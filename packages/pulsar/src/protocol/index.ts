// Public API of @nereus/pulsar/protocol: the sans-IO Pulsar binary-protocol codec (bytes in, plain objects out).
// Every export is named here: frames (stream splitting, decoding, encoding, message entries and checksums), the
// BaseCommand union with one typed body per modelled command, MessageMetadata and batch payloads, and the
// protocol's enums. The protobuf interpreter under wire/ stays inside the package.

// Frames.
export { PulsarFrameDecoder, type FrameDecoderOptions } from "./frames/frame-decoder.js";
export { decodeFrame, type DecodedFrame, type FramePayload } from "./frames/decode-frame.js";
export {
  encodeCommandFrame,
  encodePayloadFrame,
  encodePayloadFrameHead,
  type PayloadFrameOptions,
} from "./frames/encode-frame.js";
export {
  splitMessageEntry,
  encodeMessageEntry,
  type MessageEntryParts,
  type VerifiedEntryParts,
  type CorruptEntryParts,
} from "./frames/message-entry.js";
export {
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  FRAME_PADDING_BYTES,
  CHECKSUM_MAGIC,
  BROKER_ENTRY_METADATA_MAGIC,
} from "./frames/frame-layout.js";

// Commands.
export { decodeBaseCommand } from "./commands/base-command.js";
export { CommandType, UnsupportedCommandType, type CommandTypeName } from "./commands/command-type.js";
export type {
  PulsarCommand,
  CommandOf,
  CommandBody,
  DecodedCommand,
  UnsupportedCommand,
} from "./commands/command-codecs.js";
export {
  AuthMethod,
  type CommandConnect,
  type CommandConnected,
  type CommandAuthChallenge,
  type CommandAuthResponse,
} from "./commands/connect.js";
export type { CommandEmpty } from "./commands/keepalive.js";
export {
  LookupOutcome,
  PartitionedMetadataOutcome,
  type CommandLookupTopic,
  type CommandLookupTopicResponse,
  type CommandPartitionedTopicMetadata,
  type CommandPartitionedTopicMetadataResponse,
} from "./commands/lookup.js";
export {
  ProducerAccessMode,
  type CommandProducer,
  type CommandProducerSuccess,
  type CommandCloseProducer,
} from "./commands/producer.js";
export type { CommandSend, CommandSendReceipt, CommandSendError } from "./commands/send.js";
export {
  SubscriptionType,
  InitialPosition,
  type CommandSubscribe,
  type CommandUnsubscribe,
  type CommandCloseConsumer,
} from "./commands/subscribe.js";
export type {
  CommandFlow,
  CommandMessage,
  CommandRedeliverUnacknowledgedMessages,
  CommandActiveConsumerChange,
  CommandReachedEndOfTopic,
} from "./commands/dispatch.js";
export { AckType, AckValidationError, type CommandAck, type CommandAckResponse } from "./commands/ack.js";
export type { CommandSeek, CommandGetLastMessageId, CommandGetLastMessageIdResponse } from "./commands/seek.js";
export type { CommandSuccess, CommandError } from "./commands/outcome.js";
export type {
  CommandGetSchema,
  CommandGetSchemaResponse,
  CommandGetOrCreateSchema,
  CommandGetOrCreateSchemaResponse,
} from "./commands/schema-registry.js";
export {
  TopicListMode,
  type CommandGetTopicsOfNamespace,
  type CommandGetTopicsOfNamespaceResponse,
} from "./commands/namespace-topics.js";
export type { CommandConsumerStats, CommandConsumerStatsResponse } from "./commands/consumer-stats.js";

// Shared messages and enums.
export { type MessageIdData, NO_INDEX } from "./messages/message-id.js";
export type { KeyValue, KeyLongValue, IntRange } from "./messages/key-value.js";
export { SchemaType, type SchemaInfo } from "./messages/schema-info.js";
export { KeySharedMode, type KeySharedMeta } from "./messages/key-shared-meta.js";
export type { FeatureFlags, AuthData } from "./messages/feature-flags.js";
export { ServerError } from "./messages/server-error.js";
export { ProtocolVersion } from "./messages/protocol-version.js";
export { enumValueName, type EnumTable, type EnumValue } from "./wire/proto-enum.js";

// Message metadata and batches.
export {
  CompressionType,
  decodeMessageMetadata,
  encodeMessageMetadata,
  type MessageMetadata,
  type EncryptionKeys,
} from "./metadata/message-metadata.js";
export type { SingleMessageMetadata } from "./metadata/single-message-metadata.js";
export type { BrokerEntryMetadata } from "./metadata/broker-entry-metadata.js";
export {
  readBatch,
  encodeBatchPayload,
  type BatchContents,
  type BatchMessage,
  type BatchMessageInput,
} from "./metadata/batch-payload.js";
