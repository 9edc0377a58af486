// How a Key_Shared consumer wants keys assigned: hash ranges split automatically among consumers, or sticky ranges
// the consumer names itself, and whether messages of one key may be delivered out of order.
import { defineMessage } from "../wire/message-schema.js";
import { protoEnum } from "../wire/proto-enum.js";
import { bool } from "../wire/proto-type.js";
import { optional, repeated, required } from "../wire/field-spec.js";
import { type IntRange, IntRangeCodec } from "./key-value.js";

/** Key_Shared assignment modes, by name. */
export const KeySharedMode = {
  /** The broker splits the hash space among the consumers. */
  AUTO_SPLIT: 0,
  /** Each consumer names its own hash ranges. */
  STICKY: 1,
} as const;

/** Key_Shared options of a SUBSCRIBE. */
export interface KeySharedMeta {
  /** A {@link KeySharedMode} value. */
  readonly keySharedMode: number;
  /** The consumer's hash ranges (sticky mode). */
  readonly hashRanges?: readonly IntRange[];
  /** True lets the broker deliver a key's messages out of order; absent means false. */
  readonly allowOutOfOrderDelivery?: boolean;
}

export const KeySharedMetaCodec = defineMessage<KeySharedMeta>("KeySharedMeta", {
  keySharedMode: required(1, protoEnum("KeySharedMode", KeySharedMode)),
  hashRanges: repeated(3, IntRangeCodec),
  allowOutOfOrderDelivery: optional(4, bool),
});
