// The schema a producer or consumer declares for a topic (the Schema message): a name, the definition bytes, its
// kind, and string properties. Only typed clients send one; a bytes producer sends none.
import { defineMessage } from "../wire/message-schema.js";
import { protoEnum } from "../wire/proto-enum.js";
import { bytes, string } from "../wire/proto-type.js";
import { repeated, required } from "../wire/field-spec.js";
import { type KeyValue, KeyValueCodec } from "./key-value.js";

/** Kinds of schema, by name. */
export const SchemaType = {
  None: 0,
  String: 1,
  Json: 2,
  Protobuf: 3,
  Avro: 4,
  Bool: 5,
  Int8: 6,
  Int16: 7,
  Int32: 8,
  Int64: 9,
  Float: 10,
  Double: 11,
  Date: 12,
  Time: 13,
  Timestamp: 14,
  KeyValue: 15,
  Instant: 16,
  LocalDate: 17,
  LocalTime: 18,
  LocalDateTime: 19,
  ProtobufNative: 20,
  AutoConsume: 21,
} as const;

/** A topic schema as carried by PRODUCER, SUBSCRIBE, SUCCESS and the schema commands. */
export interface SchemaInfo {
  readonly name: string;
  /** The definition (an Avro or JSON schema text, a protobuf descriptor, empty for primitive kinds). */
  readonly schemaData: Uint8Array;
  /** A {@link SchemaType} value. */
  readonly type: number;
  readonly properties?: readonly KeyValue[];
}

export const SchemaInfoCodec = defineMessage<SchemaInfo>("Schema", {
  name: required(1, string),
  schemaData: required(3, bytes),
  type: required(4, protoEnum("Schema.Type", SchemaType)),
  properties: repeated(5, KeyValueCodec),
});
