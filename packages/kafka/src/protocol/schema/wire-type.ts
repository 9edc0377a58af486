// The contract every field type of the schema layer implements: how one value of the type is read from and
// written to the wire in a given version, and its default. Scalars, arrays and structs all implement it, so a
// schema is a tree of WireTypes. Readers return views for byte fields; writers copy.
import type { ByteReader, ByteWriter } from "@nereus/core";

/** What a codec needs to know about the message version being read or written. */
export interface CodecContext {
  readonly version: number;
  /** The version is flexible (KIP-482): compact lengths and tagged-field sections. */
  readonly flexible: boolean;
}

/**
 * One Kafka wire type. `read` returns `null` only when `nullable` is true and the wire says null; `write` accepts
 * `null` only when `nullable` is true. `field` names the value in error messages.
 */
export interface WireType<T> {
  /** Name in the spec grammar, e.g. "int32", "string", "[]TopicData". */
  readonly typeName: string;
  /** Whether the type has a null encoding at all (strings, bytes, records, arrays). */
  readonly supportsNull: boolean;
  read(reader: ByteReader, field: string, context: CodecContext, nullable: boolean): T | null;
  write(writer: ByteWriter, value: T | null, field: string, context: CodecContext, nullable: boolean): void;
  /** A fresh default value (0, "", false, empty array, struct of defaults, ...). */
  defaultValue(): T;
}

/** A WireType that has a null encoding, so a field of it may be declared nullable. */
export interface NullableWireType<T> extends WireType<T> {
  readonly supportsNull: true;
}

/** The value type carried by a WireType. */
export type WireValue<W> = W extends WireType<infer T> ? T : never;
