// Protobuf enums of the Pulsar protocol as plain name → number tables, and the field type that carries them.
// Enums are open: a value this codec does not name (a newer peer's error code or schema type) decodes as its
// number instead of failing the whole command, so a broker can still answer the request it belongs to.
import { WireType } from "@bufbuild/protobuf/wire";
import { invalidValue } from "./codec-errors.js";
import type { ProtoType } from "./proto-type.js";

/** A protobuf enum: its value names mapped to their numbers. */
export type EnumTable = Readonly<Record<string, number>>;

/** The numbers an enum table names (a field typed by it may still carry other int32 values from the wire). */
export type EnumValue<Table extends EnumTable> = Table[keyof Table];

/** Field type of an enum: an int32 varint; every int32 decodes, named or not. */
export interface EnumType extends ProtoType<number> {
  /** The values the enum names. */
  readonly table: EnumTable;
}

/** The field type of the enum `name` with the values of `table`. */
export function protoEnum(name: string, table: EnumTable): EnumType {
  return {
    name,
    table,
    wireType: WireType.Varint,
    packable: true,
    read: (reader) => reader.int32(),
    write(writer, value, path) {
      if (!Number.isInteger(value) || value < -0x8000_0000 || value > 0x7fff_ffff) {
        throw invalidValue(path, `enum ${name}`, value);
      }
      writer.int32(value);
    },
  };
}

/** The name `table` gives `value`, or `undefined` for a number it does not name (for logs and messages). */
export function enumValueName(table: EnumTable, value: number): string | undefined {
  for (const [name, number] of Object.entries(table)) if (number === value) return name;
  return undefined;
}
