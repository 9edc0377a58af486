// A whole request or response body: a top-level struct plus the message's valid and flexible version ranges.
// decode/encode work on complete bodies (trailing bytes are a DECODE_ERROR); read/write work inside a larger
// frame (after the header). Sans-IO: bytes in, plain objects out.
import { ByteReader, ByteWriter, ErrorCode, NereusError } from "@nereus/core";
import { type FieldShape, type StructSchema, type StructValue, struct } from "./struct-schema.js";
import { formatVersionRange, inVersionRange, parseVersionRange, type VersionRange } from "./version-range.js";
import type { CodecContext } from "./wire-type.js";

/** Declaration of a message: the facts at the top of a Kafka message spec plus its fields. */
export interface MessageDefinition<F extends FieldShape> {
  readonly name: string;
  readonly apiKey: number;
  readonly type: "request" | "response";
  /** Versions the spec defines, e.g. "0-11". */
  readonly validVersions: string;
  /** First flexible version, e.g. "9+", or "none". */
  readonly flexibleVersions: string;
  readonly fields: F;
}

/** The codec of one request or response body, for every version in `validVersions`. */
export class MessageSchema<F extends FieldShape> {
  readonly name: string;
  readonly apiKey: number;
  readonly type: "request" | "response";
  readonly validVersions: VersionRange;
  readonly flexibleVersions: VersionRange;
  readonly body: StructSchema<F>;

  constructor(definition: MessageDefinition<F>) {
    this.name = definition.name;
    this.apiKey = definition.apiKey;
    this.type = definition.type;
    this.validVersions = parseVersionRange(definition.validVersions);
    this.flexibleVersions = parseVersionRange(definition.flexibleVersions);
    this.body = struct(definition.name, definition.fields);
  }

  /** First flexible version (Infinity when none is). */
  get flexibleFrom(): number {
    return this.flexibleVersions.min > this.flexibleVersions.max ? Infinity : this.flexibleVersions.min;
  }

  /** True when `version` uses compact encodings and tagged fields. */
  isFlexible(version: number): boolean {
    return inVersionRange(this.flexibleVersions, version);
  }

  #context(version: number): CodecContext {
    if (!Number.isInteger(version) || !inVersionRange(this.validVersions, version)) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `${this.name} has no version ${String(version)} (valid: ${formatVersionRange(this.validVersions)})`,
      );
    }
    return { version, flexible: this.isFlexible(version) };
  }

  /** Reads the body at the reader's position (the reader may hold more data after it). */
  read(reader: ByteReader, version: number): StructValue<F> {
    return this.body.read(reader, this.name, this.#context(version));
  }

  /** Appends the body to `writer`. */
  write(writer: ByteWriter, value: StructValue<F>, version: number): void {
    this.body.write(writer, value, this.name, this.#context(version));
  }

  /** Decodes a complete body; byte fields of the result are views into `bytes`. */
  decode(bytes: Uint8Array, version: number): StructValue<F> {
    const reader = new ByteReader(bytes, `Kafka ${this.name} v${String(version)}`);
    const value = this.read(reader, version);
    reader.expectEnd();
    return value;
  }

  /** Encodes a complete body into fresh bytes. */
  encode(value: StructValue<F>, version: number): Uint8Array {
    const writer = new ByteWriter();
    this.write(writer, value, version);
    return writer.finish();
  }
}

/** Declares a message codec. */
export function message<F extends FieldShape>(definition: MessageDefinition<F>): MessageSchema<F> {
  return new MessageSchema(definition);
}

/** The decoded body type of a message codec. */
export type MessageValue<M> = M extends MessageSchema<infer F> ? StructValue<F> : never;
