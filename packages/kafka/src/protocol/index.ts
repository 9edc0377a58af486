// Public API of @nereus/kafka/protocol: the sans-IO Kafka wire codec (bytes in, plain objects out). Every export
// is named here.

// Frames and headers.
export { FrameDecoder, DEFAULT_MAX_FRAME_BYTES, type FrameDecoderOptions } from "./frames/frame-decoder.js";
export {
  type RequestHeader,
  type RequestHeaderVersion,
  readRequestHeader,
  writeRequestHeader,
  requestHeaderVersion,
} from "./headers/request-header.js";
export {
  type ResponseHeader,
  type ResponseHeaderVersion,
  readResponseHeader,
  writeResponseHeader,
  responseHeaderVersion,
} from "./headers/response-header.js";

// Kafka-specific primitives over @nereus/core's ByteReader/ByteWriter.
export { readInt8, readInt16, readInt64BigInt, writeInt8, writeInt16, writeInt64BigInt } from "./primitives/fixed-width.js";
export {
  readUnsignedVarint,
  writeUnsignedVarint,
  sizeOfUnsignedVarint,
  readVarint,
  writeVarint,
  readVarlong,
  readSafeVarlong,
  writeVarlong,
} from "./primitives/varint.js";
export { readKafkaString, writeKafkaString, MAX_STRING_BYTES, type StringLayout } from "./primitives/kafka-string.js";
export { readKafkaBytes, writeKafkaBytes, type BytesLayout } from "./primitives/kafka-bytes.js";
export { readArrayLength, writeArrayLength, type ArrayLayout } from "./primitives/array-length.js";
export { readUuid, writeUuid, ZERO_UUID } from "./primitives/uuid.js";
export { readTaggedFields, writeTaggedFields, type RawTaggedField } from "./primitives/tagged-fields.js";

// The schema layer every API codec is declared with.
export { MessageSchema, message, type MessageDefinition, type MessageValue } from "./schema/message-schema.js";
export { StructSchema, struct, type FieldShape, type StructValue, type UnknownTaggedFields } from "./schema/struct-schema.js";
export { field, nullableField, type FieldSpec, type FieldOptions, type NullableFieldOptions, type FieldValue } from "./schema/field-spec.js";
export { arrayOf, type ArrayType } from "./schema/array-type.js";
export { int8, int16, uint16, int32, uint32, int64, int64BigInt, float64, bool, uuid, string, bytes, records } from "./schema/scalar-types.js";
export type { WireType, NullableWireType, WireValue, CodecContext } from "./schema/wire-type.js";
export { type VersionRange, parseVersionRange, inVersionRange, formatVersionRange } from "./schema/version-range.js";
export { describeSchema } from "./schema/describe-schema.js";
