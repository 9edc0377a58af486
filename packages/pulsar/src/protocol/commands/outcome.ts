// The generic answers to a request: SUCCESS and ERROR, matched to the request by its request id.
import { defineMessage } from "../wire/message-schema.js";
import { string, uint64 } from "../wire/proto-type.js";
import { optional, required } from "../wire/field-spec.js";
import { type SchemaInfo, SchemaInfoCodec } from "../messages/schema-info.js";
import { serverErrorType } from "../messages/server-error.js";

/** SUCCESS: the request `requestId` succeeded. */
export interface CommandSuccess {
  readonly requestId: bigint;
  /** The topic's schema (answer to a SUBSCRIBE). */
  readonly schema?: SchemaInfo;
}

export const CommandSuccessCodec = defineMessage<CommandSuccess>("CommandSuccess", {
  requestId: required(1, uint64),
  schema: optional(2, SchemaInfoCodec),
});

/** ERROR: the request `requestId` failed. */
export interface CommandError {
  readonly requestId: bigint;
  /** A ServerError value. */
  readonly error: number;
  readonly message: string;
}

export const CommandErrorCodec = defineMessage<CommandError>("CommandError", {
  requestId: required(1, uint64),
  error: required(2, serverErrorType),
  message: required(3, string),
});
