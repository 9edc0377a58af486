// The value types of Pulsar's protobuf fields (proto2), each a reader and a writer over @bufbuild/protobuf's wire
// primitives. 64-bit integers are bigint end to end, 32-bit ones numbers; strings are strict UTF-8 both ways;
// decoded bytes are views of the input (copy before retaining). Writers validate before writing, so a bad value is
// an INVALID_ARGUMENT naming its field path, never a half-written buffer that gets used.
import { encodeStrictUtf8 } from "@nereus/core";
import { type BinaryReader, type BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { invalidValue } from "./codec-errors.js";

/**
 * One protobuf value type. `read` consumes exactly one value of `wireType` (the tag already read; `offset` is where
 * the reader's buffer starts in the frame and `depth` the message nesting, both for nested messages); `write` emits
 * one value (the tag already written), `path` naming the field for error messages. Readers throw whatever the wire
 * library throws; the message decoder turns it into a DECODE_ERROR naming the field and byte.
 */
export interface ProtoType<T> {
  /** Protobuf type name as it appears in messages (`uint64`, `string`, `MessageIdData`). */
  readonly name: string;
  readonly wireType: WireType;
  /** True for scalar numeric types: a repeated field of them may also arrive packed in one length-delimited run. */
  readonly packable: boolean;
  read(reader: BinaryReader, offset: number, depth: number): T;
  write(writer: BinaryWriter, value: T, path: string): void;
}

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

function asBigInt(value: bigint | string): bigint {
  return typeof value === "bigint" ? value : BigInt(value);
}

function scalar<T>(name: string, wireType: WireType, parts: Pick<ProtoType<T>, "read" | "write">): ProtoType<T> {
  return { name, wireType, packable: wireType !== WireType.LengthDelimited, ...parts };
}

/** `uint64` as an unsigned bigint in [0, 2^64-1] (ids, sequence ids, timestamps). */
export const uint64: ProtoType<bigint> = scalar("uint64", WireType.Varint, {
  read: (reader) => asBigInt(reader.uint64()),
  write(writer, value, path) {
    if (typeof value !== "bigint" || value < 0n || value > UINT64_MAX) throw invalidValue(path, "uint64", value);
    writer.uint64(value);
  },
});

/** `int64` as a signed bigint (ten-byte varint when negative). */
export const int64: ProtoType<bigint> = scalar("int64", WireType.Varint, {
  read: (reader) => asBigInt(reader.int64()),
  write(writer, value, path) {
    if (typeof value !== "bigint" || value < INT64_MIN || value > INT64_MAX) throw invalidValue(path, "int64", value);
    writer.int64(value);
  },
});

/** `uint32` as a number in [0, 2^32-1]. */
export const uint32: ProtoType<number> = scalar("uint32", WireType.Varint, {
  read: (reader) => reader.uint32(),
  write(writer, value, path) {
    if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) throw invalidValue(path, "uint32", value);
    writer.uint32(value);
  },
});

/** `int32` as a number in [-2^31, 2^31-1] (ten-byte varint when negative, as protobuf sign-extends it). */
export const int32: ProtoType<number> = scalar("int32", WireType.Varint, {
  read: (reader) => reader.int32(),
  write(writer, value, path) {
    if (!Number.isInteger(value) || value < -0x8000_0000 || value > 0x7fff_ffff) {
      throw invalidValue(path, "int32", value);
    }
    writer.int32(value);
  },
});

/** `bool`; any non-zero varint decodes as true. */
export const bool: ProtoType<boolean> = scalar("bool", WireType.Varint, {
  read: (reader) => reader.bool(),
  write(writer, value, path) {
    if (typeof value !== "boolean") throw invalidValue(path, "bool", value, "not a boolean");
    writer.bool(value);
  },
});

/** `double`, eight bytes little-endian. */
export const double: ProtoType<number> = scalar("double", WireType.Bit64, {
  read: (reader) => reader.double(),
  write(writer, value, path) {
    if (typeof value !== "number") throw invalidValue(path, "double", value, "not a number");
    writer.double(value);
  },
});

/** `string`: strict UTF-8 (malformed bytes are a DECODE_ERROR; lone surrogates an INVALID_ARGUMENT). */
export const string: ProtoType<string> = {
  name: "string",
  wireType: WireType.LengthDelimited,
  packable: false,
  read: (reader) => reader.string(true),
  write(writer, value, path) {
    if (typeof value !== "string") throw invalidValue(path, "string", value, "not a string");
    writer.bytes(encodeStrictUtf8(value, path));
  },
};

/** `bytes` as a view of the decoded buffer. */
export const bytes: ProtoType<Uint8Array> = {
  name: "bytes",
  wireType: WireType.LengthDelimited,
  packable: false,
  read: (reader) => reader.bytes(),
  write(writer, value, path) {
    if (!(value instanceof Uint8Array)) throw invalidValue(path, "bytes", value, "not a Uint8Array");
    writer.bytes(value);
  },
};
