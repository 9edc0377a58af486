// Protocol-buffers wire types (the low 3 bits of a field tag). Only the encoding layer; no schema knowledge.

/** Wire type of a protobuf field: how its value is laid out after the tag. Groups (3/4) are only ever skipped. */
export const WireType = {
  VARINT: 0,
  FIXED64: 1,
  LENGTH_DELIMITED: 2,
  START_GROUP: 3,
  END_GROUP: 4,
  FIXED32: 5,
} as const;

export type WireType = (typeof WireType)[keyof typeof WireType];
