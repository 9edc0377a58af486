// The schema commands of a connection, over the broker's schema registry: GET_SCHEMA (a version, or the latest; a
// topic without one is answered TopicNotFound "Topic not found or no-schema", which clients read as "no schema"),
// GET_OR_CREATE_SCHEMA (the registry's rule: the version of an equal schema, version 0 on a topic without one,
// IncompatibleSchema otherwise; the bytes schema needs no version and gets the empty one), and the schema a PRODUCER
// or SUBSCRIBE declares, registered by the same rule before the producer or consumer is opened. Schema versions are
// 8-byte big-endian longs; a schema's name is its topic's schema name, `{tenant}/{namespace}/{topic}`.
import {
  type CommandGetOrCreateSchema,
  type CommandGetSchema,
  type SchemaInfo,
  ServerError,
} from "../protocol/index.js";
import { decodeSchemaVersion, encodeSchemaVersion } from "../schemas/schema-version.js";
import { type TopicName, parseTopicName } from "../topics/topic-name.js";
import type { ConnectionIo } from "./connection-io.js";
import { type ErrorReply, errorReplyOf } from "./error-replies.js";

/** What GET_SCHEMA answers for a topic without a schema (Apache Pulsar's words, which clients recognise). */
const NO_SCHEMA = "Topic not found or no-schema";

/** Outcome of registering a declared schema: the version to announce (none for the bytes schema), or refused. */
export type DeclaredSchema =
  | { readonly accepted: true; readonly schemaVersion?: Uint8Array }
  | { readonly accepted: false; readonly reply: ErrorReply };

/** The schema name of `topic`: `{tenant}/{namespace}/{local name of its partitioned topic}`. */
function schemaName(topic: TopicName): string {
  const owner = topic.partitionIndex < 0 ? topic : parseTopicName(topic.partitionedTopicName);
  return `${owner.tenant}/${owner.namespace}/${owner.localName}`;
}

/** Registers the schema a PRODUCER or SUBSCRIBE declares for `topic` (see the module comment). */
export async function registerDeclaredSchema(
  io: ConnectionIo,
  topic: TopicName,
  schema: SchemaInfo | undefined,
): Promise<DeclaredSchema> {
  const registration = await io.context.schemas.register(topic, schema);
  if (!registration.compatible) {
    return { accepted: false, reply: { error: ServerError.IncompatibleSchema, message: registration.reason } };
  }
  return registration.version === undefined
    ? { accepted: true }
    : { accepted: true, schemaVersion: encodeSchemaVersion(registration.version) };
}

/** Answers GET_SCHEMA. */
export async function answerGetSchema(io: ConnectionIo, command: CommandGetSchema): Promise<void> {
  const { requestId } = command;
  try {
    const topic = parseTopicName(command.topic);
    const version = command.schemaVersion === undefined ? undefined : decodeSchemaVersion(command.schemaVersion);
    const stored = await io.context.schemas.get(topic, version);
    if (stored === undefined) {
      io.send({
        type: "GET_SCHEMA_RESPONSE",
        body: { requestId, errorCode: ServerError.TopicNotFound, errorMessage: NO_SCHEMA },
      });
      return;
    }
    const schema: SchemaInfo = {
      name: schemaName(topic),
      schemaData: stored.data,
      type: stored.type,
      properties: stored.properties,
    };
    io.send({
      type: "GET_SCHEMA_RESPONSE",
      body: { requestId, schema, schemaVersion: encodeSchemaVersion(stored.version) },
    });
  } catch (error) {
    const reply = errorReplyOf(error);
    io.send({
      type: "GET_SCHEMA_RESPONSE",
      body: { requestId, errorCode: reply.error, errorMessage: reply.message },
    });
  }
}

/** Answers GET_OR_CREATE_SCHEMA. */
export async function answerGetOrCreateSchema(io: ConnectionIo, command: CommandGetOrCreateSchema): Promise<void> {
  const { requestId } = command;
  try {
    const declared = await registerDeclaredSchema(io, parseTopicName(command.topic), command.schema);
    io.send({
      type: "GET_OR_CREATE_SCHEMA_RESPONSE",
      body: declared.accepted
        ? { requestId, schemaVersion: declared.schemaVersion ?? new Uint8Array(0) }
        : { requestId, errorCode: declared.reply.error, errorMessage: declared.reply.message },
    });
  } catch (error) {
    const reply = errorReplyOf(error);
    io.send({
      type: "GET_OR_CREATE_SCHEMA_RESPONSE",
      body: { requestId, errorCode: reply.error, errorMessage: reply.message },
    });
  }
}
