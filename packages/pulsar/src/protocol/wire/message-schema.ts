// A protobuf message declared field by field, and the proto2 interpreter that decodes and encodes it. Decoding:
// unknown fields are skipped, a known field with an unexpected wire type is skipped like an unknown one (as
// protobuf does), repeated scalars are accepted packed or unpacked, a repeated field collects every occurrence, a
// non-repeated field that occurs twice keeps the last occurrence (protobuf would merge two occurrences of a message
// field; no Pulsar peer splits one), and a missing required field is a DECODE_ERROR. Encoding writes fields in
// number order, repeated ones unpacked (proto2's default, what Pulsar's own encoder emits), absent optional fields
// not at all. Decoded objects are fresh; their bytes fields are views of the input.
import { ErrorCode, NereusError } from "@nereus/core";
import { BinaryReader, type BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { decodeError, describeCause, invalidValue } from "./codec-errors.js";
import type { AnyField, FieldsOf } from "./field-spec.js";
import { encodeWith } from "./pooled-writer.js";
import type { ProtoType } from "./proto-type.js";

/** Deepest message nesting a decoder follows (MessageIdData can nest itself through its first chunk id). */
export const MAX_MESSAGE_DEPTH = 32;

interface FieldEntry {
  readonly key: string;
  readonly field: AnyField;
  /** `Message.property`, for error messages. */
  readonly path: string;
}

/** Decoder and encoder of one protobuf message type whose decoded form is `T`. */
export class MessageSchema<T extends object> implements ProtoType<T> {
  readonly name: string;
  readonly wireType = WireType.LengthDelimited;
  readonly packable = false;
  /** Field declarations in field-number order. */
  readonly fields: readonly FieldEntry[];
  readonly #byNumber: readonly (FieldEntry | undefined)[];
  readonly #required: readonly FieldEntry[];

  constructor(name: string, fields: FieldsOf<T>) {
    this.name = name;
    const entries = Object.entries(fields as Record<string, AnyField>)
      .map(([key, field]) => ({ key, field, path: `${name}.${key}` }))
      .sort((left, right) => left.field.number - right.field.number);
    const byNumber: (FieldEntry | undefined)[] = [];
    for (const entry of entries) {
      if (byNumber[entry.field.number] !== undefined) {
        throw new NereusError(
          ErrorCode.INVALID_ARGUMENT,
          `${name}: field number ${String(entry.field.number)} declared twice`,
        );
      }
      byNumber[entry.field.number] = entry;
    }
    this.fields = entries;
    this.#byNumber = byNumber;
    this.#required = entries.filter((entry) => entry.field.label === "required");
  }

  /**
   * Decodes one message that fills all of `bytes`. `offset` is where `bytes` start in the enclosing frame or
   * buffer, so that errors name absolute byte positions. Throws DECODE_ERROR on malformed input.
   */
  decode(bytes: Uint8Array, offset = 0): T {
    return this.#decodeBody(bytes, offset, 0);
  }

  /** Encodes `value` to fresh bytes. Throws INVALID_ARGUMENT for a value a field cannot carry. */
  encode(value: T): Uint8Array {
    return encodeWith((writer) => {
      this.writeFields(writer, value);
    });
  }

  /** Writes the fields of `value` (no length prefix) into `writer`. */
  writeFields(writer: BinaryWriter, value: T): void {
    if (typeof value !== "object" || value === null) throw invalidValue(this.name, "message", value, "not an object");
    const record = value as Record<string, unknown>;
    for (const { key, field, path } of this.fields) {
      const fieldValue = record[key];
      if (fieldValue === undefined || fieldValue === null) {
        if (field.label === "required") throw invalidValue(path, field.type.name, fieldValue, "missing (required)");
        continue;
      }
      if (field.label !== "repeated") {
        writer.tag(field.number, field.type.wireType);
        field.type.write(writer, fieldValue, path);
        continue;
      }
      if (!Array.isArray(fieldValue))
        throw invalidValue(path, `repeated ${field.type.name}`, fieldValue, "not an array");
      for (const element of fieldValue) {
        writer.tag(field.number, field.type.wireType);
        field.type.write(writer, element, path);
      }
    }
  }

  /** {@link ProtoType.read}: one length-delimited occurrence of this message inside another. */
  read(reader: BinaryReader, offset: number, depth: number): T {
    const body = reader.bytes();
    return this.#decodeBody(body, offset + reader.pos - body.length, depth + 1);
  }

  /** {@link ProtoType.write}: this message as a length-delimited value. */
  write(writer: BinaryWriter, value: T): void {
    writer.fork();
    this.writeFields(writer, value);
    writer.join();
  }

  #decodeBody(bytes: Uint8Array, offset: number, depth: number): T {
    if (depth > MAX_MESSAGE_DEPTH) {
      throw decodeError(this.name, offset, `messages nested more than ${String(MAX_MESSAGE_DEPTH)} deep`);
    }
    const reader = new BinaryReader(bytes);
    const out: Record<string, unknown> = {};
    let current: FieldEntry | undefined;
    try {
      while (reader.pos < reader.len) {
        current = undefined;
        const [number, wireType] = reader.tag();
        current = this.#byNumber[number];
        if (current === undefined) reader.skip(wireType, number);
        else this.#readField(reader, current, wireType, out, offset, depth);
      }
    } catch (cause) {
      if (NereusError.is(cause)) throw cause;
      throw decodeError(
        current?.path ?? this.name,
        offset + Math.min(reader.pos, reader.len),
        describeCause(cause),
        cause,
      );
    }
    for (const { key, field } of this.#required) {
      if (out[key] === undefined) {
        throw decodeError(this.name, offset, `required field ${key} (number ${String(field.number)}) is missing`);
      }
    }
    return out as T;
  }

  #readField(
    reader: BinaryReader,
    { key, field }: FieldEntry,
    wireType: WireType,
    out: Record<string, unknown>,
    offset: number,
    depth: number,
  ): void {
    const { type } = field;
    if (field.label !== "repeated") {
      if (wireType === type.wireType) out[key] = type.read(reader, offset, depth);
      else reader.skip(wireType, field.number);
      return;
    }
    if (wireType === type.wireType) {
      appendTo(out, key, type.read(reader, offset, depth));
    } else if (wireType === WireType.LengthDelimited && type.packable) {
      const run = reader.bytes();
      const packed = new BinaryReader(run);
      while (packed.pos < packed.len) appendTo(out, key, type.read(packed, offset, depth));
    } else {
      reader.skip(wireType, field.number);
    }
  }
}

function appendTo(out: Record<string, unknown>, key: string, element: unknown): void {
  const list = out[key] as unknown[] | undefined;
  if (list === undefined) out[key] = [element];
  else list.push(element);
}

/** Declares the message `name` with one field declaration per property of `T`. */
export function defineMessage<T extends object>(name: string, fields: FieldsOf<T>): MessageSchema<T> {
  return new MessageSchema<T>(name, fields);
}

/** A message field type whose schema is looked up when first used. */
export interface LazyMessageType<T extends object> extends ProtoType<T> {
  /** The message schema. */
  resolve(): MessageSchema<T>;
}

/** The message type `name` before its schema exists, for a message that contains itself. */
export function lazyMessage<T extends object>(name: string, resolve: () => MessageSchema<T>): LazyMessageType<T> {
  return {
    name,
    wireType: WireType.LengthDelimited,
    packable: false,
    resolve,
    read: (reader, offset, depth) => resolve().read(reader, offset, depth),
    write: (writer, value) => {
      resolve().write(writer, value);
    },
  };
}
