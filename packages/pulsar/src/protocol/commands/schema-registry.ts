// Schema registry commands: GET_SCHEMA (a topic's schema, optionally at a version) and GET_OR_CREATE_SCHEMA
// (register a producer's schema), each with its response.
import { defineMessage } from "../wire/message-schema.js";
import { bytes, string, uint64 } from "../wire/proto-type.js";
import { optional, required } from "../wire/field-spec.js";
import { type SchemaInfo, SchemaInfoCodec } from "../messages/schema-info.js";
import { serverErrorType } from "../messages/server-error.js";

/** GET_SCHEMA: the schema of `topic` (the latest one without `schemaVersion`). */
export interface CommandGetSchema {
  readonly requestId: bigint;
  readonly topic: string;
  readonly schemaVersion?: Uint8Array;
}

export const CommandGetSchemaCodec = defineMessage<CommandGetSchema>("CommandGetSchema", {
  requestId: required(1, uint64),
  topic: required(2, string),
  schemaVersion: optional(3, bytes),
});

/** GET_SCHEMA_RESPONSE. */
export interface CommandGetSchemaResponse {
  readonly requestId: bigint;
  /** A ServerError value, on failure. */
  readonly errorCode?: number;
  readonly errorMessage?: string;
  readonly schema?: SchemaInfo;
  readonly schemaVersion?: Uint8Array;
}

export const CommandGetSchemaResponseCodec = defineMessage<CommandGetSchemaResponse>("CommandGetSchemaResponse", {
  requestId: required(1, uint64),
  errorCode: optional(2, serverErrorType),
  errorMessage: optional(3, string),
  schema: optional(4, SchemaInfoCodec),
  schemaVersion: optional(5, bytes),
});

/** GET_OR_CREATE_SCHEMA: register `schema` on `topic` (or find it registered). */
export interface CommandGetOrCreateSchema {
  readonly requestId: bigint;
  readonly topic: string;
  readonly schema: SchemaInfo;
}

export const CommandGetOrCreateSchemaCodec = defineMessage<CommandGetOrCreateSchema>("CommandGetOrCreateSchema", {
  requestId: required(1, uint64),
  topic: required(2, string),
  schema: required(3, SchemaInfoCodec),
});

/** GET_OR_CREATE_SCHEMA_RESPONSE. */
export interface CommandGetOrCreateSchemaResponse {
  readonly requestId: bigint;
  /** A ServerError value, on failure. */
  readonly errorCode?: number;
  readonly errorMessage?: string;
  readonly schemaVersion?: Uint8Array;
}

export const CommandGetOrCreateSchemaResponseCodec = defineMessage<CommandGetOrCreateSchemaResponse>(
  "CommandGetOrCreateSchemaResponse",
  {
    requestId: required(1, uint64),
    errorCode: optional(2, serverErrorType),
    errorMessage: optional(3, string),
    schemaVersion: optional(4, bytes),
  },
);
