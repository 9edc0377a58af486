// Which body message each modelled command type carries: the table the BaseCommand codec dispatches on, and the
// typed command union derived from it.
import type { MessageSchema } from "../wire/message-schema.js";
import { CommandAckCodec, CommandAckResponseCodec } from "./ack.js";
import {
  CommandAuthChallengeCodec,
  CommandAuthResponseCodec,
  CommandConnectCodec,
  CommandConnectedCodec,
} from "./connect.js";
import { CommandConsumerStatsCodec, CommandConsumerStatsResponseCodec } from "./consumer-stats.js";
import {
  CommandActiveConsumerChangeCodec,
  CommandFlowCodec,
  CommandMessageCodec,
  CommandReachedEndOfTopicCodec,
  CommandRedeliverUnacknowledgedMessagesCodec,
} from "./dispatch.js";
import { CommandPingCodec, CommandPongCodec } from "./keepalive.js";
import {
  CommandLookupTopicCodec,
  CommandLookupTopicResponseCodec,
  CommandPartitionedTopicMetadataCodec,
  CommandPartitionedTopicMetadataResponseCodec,
} from "./lookup.js";
import { CommandGetTopicsOfNamespaceCodec, CommandGetTopicsOfNamespaceResponseCodec } from "./namespace-topics.js";
import { CommandErrorCodec, CommandSuccessCodec } from "./outcome.js";
import { CommandCloseProducerCodec, CommandProducerCodec, CommandProducerSuccessCodec } from "./producer.js";
import {
  CommandGetOrCreateSchemaCodec,
  CommandGetOrCreateSchemaResponseCodec,
  CommandGetSchemaCodec,
  CommandGetSchemaResponseCodec,
} from "./schema-registry.js";
import { CommandGetLastMessageIdCodec, CommandGetLastMessageIdResponseCodec, CommandSeekCodec } from "./seek.js";
import { CommandSendCodec, CommandSendErrorCodec, CommandSendReceiptCodec } from "./send.js";
import { CommandCloseConsumerCodec, CommandSubscribeCodec, CommandUnsubscribeCodec } from "./subscribe.js";
import type { CommandTypeName } from "./command-type.js";

/** The body codec of every modelled command type. */
export const COMMAND_CODECS = {
  CONNECT: CommandConnectCodec,
  CONNECTED: CommandConnectedCodec,
  SUBSCRIBE: CommandSubscribeCodec,
  PRODUCER: CommandProducerCodec,
  SEND: CommandSendCodec,
  SEND_RECEIPT: CommandSendReceiptCodec,
  SEND_ERROR: CommandSendErrorCodec,
  MESSAGE: CommandMessageCodec,
  ACK: CommandAckCodec,
  FLOW: CommandFlowCodec,
  UNSUBSCRIBE: CommandUnsubscribeCodec,
  SUCCESS: CommandSuccessCodec,
  ERROR: CommandErrorCodec,
  CLOSE_PRODUCER: CommandCloseProducerCodec,
  CLOSE_CONSUMER: CommandCloseConsumerCodec,
  PRODUCER_SUCCESS: CommandProducerSuccessCodec,
  PING: CommandPingCodec,
  PONG: CommandPongCodec,
  REDELIVER_UNACKNOWLEDGED_MESSAGES: CommandRedeliverUnacknowledgedMessagesCodec,
  PARTITIONED_METADATA: CommandPartitionedTopicMetadataCodec,
  PARTITIONED_METADATA_RESPONSE: CommandPartitionedTopicMetadataResponseCodec,
  LOOKUP: CommandLookupTopicCodec,
  LOOKUP_RESPONSE: CommandLookupTopicResponseCodec,
  CONSUMER_STATS: CommandConsumerStatsCodec,
  CONSUMER_STATS_RESPONSE: CommandConsumerStatsResponseCodec,
  REACHED_END_OF_TOPIC: CommandReachedEndOfTopicCodec,
  SEEK: CommandSeekCodec,
  GET_LAST_MESSAGE_ID: CommandGetLastMessageIdCodec,
  GET_LAST_MESSAGE_ID_RESPONSE: CommandGetLastMessageIdResponseCodec,
  ACTIVE_CONSUMER_CHANGE: CommandActiveConsumerChangeCodec,
  GET_TOPICS_OF_NAMESPACE: CommandGetTopicsOfNamespaceCodec,
  GET_TOPICS_OF_NAMESPACE_RESPONSE: CommandGetTopicsOfNamespaceResponseCodec,
  GET_SCHEMA: CommandGetSchemaCodec,
  GET_SCHEMA_RESPONSE: CommandGetSchemaResponseCodec,
  AUTH_CHALLENGE: CommandAuthChallengeCodec,
  AUTH_RESPONSE: CommandAuthResponseCodec,
  ACK_RESPONSE: CommandAckResponseCodec,
  GET_OR_CREATE_SCHEMA: CommandGetOrCreateSchemaCodec,
  GET_OR_CREATE_SCHEMA_RESPONSE: CommandGetOrCreateSchemaResponseCodec,
} as const satisfies Record<CommandTypeName, MessageSchema<object>>;

/** The decoded body of command type `K`. */
export type CommandBody<K extends CommandTypeName> =
  (typeof COMMAND_CODECS)[K] extends MessageSchema<infer Body> ? Body : never;

/** A modelled command: its type name and its body, discriminated by `type`. */
export type PulsarCommand = {
  readonly [K in CommandTypeName]: { readonly type: K; readonly body: CommandBody<K> };
}[CommandTypeName];

/** The command of type `K`. */
export type CommandOf<K extends CommandTypeName> = Extract<PulsarCommand, { readonly type: K }>;

/** A well-formed BaseCommand of a type this codec does not model; its body is not decoded. */
export interface UnsupportedCommand {
  readonly type: "UNSUPPORTED";
  /** The BaseCommand type code (see UnsupportedCommandType for the known ones). */
  readonly typeCode: number;
}

/** What decoding a BaseCommand yields. */
export type DecodedCommand = PulsarCommand | UnsupportedCommand;
