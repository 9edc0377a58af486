// ARRAY / COMPACT_ARRAY of any WireType. Elements are never null. The length prefix is checked against the
// bytes left before any element is read (see primitives/array-length.ts).
import { invalidArgument } from "../primitives/invalid-argument.js";
import { readArrayLength, writeArrayLength } from "../primitives/array-length.js";
import type { NullableWireType, WireType } from "./wire-type.js";

/** An array type; `element` is exposed for grammar rendering. */
export interface ArrayType<T> extends NullableWireType<T[]> {
  readonly element: WireType<T>;
}

/** An array of `element`, which may itself be a struct. */
export function arrayOf<T>(element: WireType<T>): ArrayType<T> {
  return {
    element,
    typeName: `[]${element.typeName}`,
    supportsNull: true,
    read(reader, field, context, nullable) {
      const length = readArrayLength(reader, field, { compact: context.flexible, nullable });
      if (length === null) return null;
      const items: T[] = [];
      for (let index = 0; index < length; index += 1) {
        items.push(element.read(reader, field, context, false) as T);
      }
      return items;
    },
    write(writer, value, field, context, nullable) {
      if (value !== null && !Array.isArray(value)) throw invalidArgument(field, value, "not an array");
      writeArrayLength(writer, value === null ? null : value.length, { compact: context.flexible, nullable }, field);
      if (value === null) return;
      for (const item of value) element.write(writer, item, field, context, false);
    },
    defaultValue: () => [],
  };
}
