// Small value messages shared by many commands: string pairs (message properties, producer and consumer
// metadata), string → uint64 pairs (ack properties) and closed integer ranges (Key_Shared hash ranges).
import { defineMessage } from "../wire/message-schema.js";
import { int32, string, uint64 } from "../wire/proto-type.js";
import { required } from "../wire/field-spec.js";

/** One string property. Lists of them keep wire order and may repeat a key. */
export interface KeyValue {
  readonly key: string;
  readonly value: string;
}

export const KeyValueCodec = defineMessage<KeyValue>("KeyValue", {
  key: required(1, string),
  value: required(2, string),
});

/** One property with an unsigned 64-bit value. */
export interface KeyLongValue {
  readonly key: string;
  readonly value: bigint;
}

export const KeyLongValueCodec = defineMessage<KeyLongValue>("KeyLongValue", {
  key: required(1, string),
  value: required(2, uint64),
});

/** A range of integers, both ends included. */
export interface IntRange {
  readonly start: number;
  readonly end: number;
}

export const IntRangeCodec = defineMessage<IntRange>("IntRange", {
  start: required(1, int32),
  end: required(2, int32),
});
