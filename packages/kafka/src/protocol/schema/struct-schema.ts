// A struct of named fields, read and written in declaration order, with the tagged-field section of flexible
// versions at its end. Per version the field list is compiled once into a plan (which fields are in line, which
// tagged, which absent). Decoding fills absent and untransmitted tagged fields with their defaults and keeps
// unknown tags as raw bytes in `unknownTaggedFields`; encoding skips fields the version lacks (the value is
// dropped, as Kafka does for ignorable fields), leaves tagged fields equal to their default off the wire, and
// writes unknown tags back.
import { ByteReader, ByteWriter } from "@nereus/core";
import { invalidArgument } from "../primitives/invalid-argument.js";
import { type RawTaggedField, readTaggedFields, writeTaggedFields } from "../primitives/tagged-fields.js";
import { deepEqual } from "./deep-equal.js";
import type { FieldSpec, FieldValue } from "./field-spec.js";
import { inVersionRange } from "./version-range.js";
import type { CodecContext, WireType } from "./wire-type.js";

/** The field declarations of a struct, by property name. */
export type FieldShape = Record<string, FieldSpec<unknown>>;

/** Tagged fields a decoder did not recognise, kept raw so they survive a decode/encode round trip. */
export interface UnknownTaggedFields {
  unknownTaggedFields?: RawTaggedField[];
}

/** The decoded object of a struct with fields `F`. */
export type StructValue<F extends FieldShape> = { [K in keyof F]: FieldValue<F[K]> } & UnknownTaggedFields;

interface FieldPlan {
  readonly key: string;
  readonly label: string;
  readonly spec: FieldSpec<unknown>;
  readonly nullable: boolean;
  readonly mode: "inline" | "tagged" | "absent";
}

interface StructPlan {
  readonly fields: readonly FieldPlan[];
  readonly tagged: ReadonlyMap<number, FieldPlan>;
}

/** A struct type; usable as a field type, an array element, or (through MessageSchema) a whole message. */
export class StructSchema<F extends FieldShape> implements WireType<StructValue<F>> {
  readonly typeName: string;
  readonly supportsNull = false;
  readonly fields: F;
  readonly #plans = new Map<number, StructPlan>();

  constructor(name: string, fields: F) {
    this.typeName = name;
    this.fields = fields;
  }

  #plan(context: CodecContext): StructPlan {
    const key = context.version * 2 + (context.flexible ? 1 : 0);
    let plan = this.#plans.get(key);
    if (plan === undefined) {
      const fields: FieldPlan[] = [];
      const tagged = new Map<number, FieldPlan>();
      for (const [name, spec] of Object.entries(this.fields)) {
        const present = inVersionRange(spec.versions, context.version);
        const isTagged =
          present && context.flexible && spec.tag !== undefined && inVersionRange(spec.taggedVersions, context.version);
        const entry: FieldPlan = {
          key: name,
          label: `${this.typeName}.${name}`,
          spec,
          nullable: inVersionRange(spec.nullableVersions, context.version),
          mode: isTagged ? "tagged" : present ? "inline" : "absent",
        };
        fields.push(entry);
        if (isTagged && spec.tag !== undefined) tagged.set(spec.tag, entry);
      }
      plan = { fields, tagged };
      this.#plans.set(key, plan);
    }
    return plan;
  }

  read(reader: ByteReader, _field: string, context: CodecContext): StructValue<F> {
    const plan = this.#plan(context);
    const value: Record<string, unknown> = {};
    for (const entry of plan.fields) {
      value[entry.key] =
        entry.mode === "inline"
          ? entry.spec.type.read(reader, entry.label, context, entry.nullable)
          : entry.spec.defaultValue();
    }
    if (context.flexible) {
      const unknown: RawTaggedField[] = [];
      for (const raw of readTaggedFields(reader, `${this.typeName} tagged fields`)) {
        const entry = plan.tagged.get(raw.tag);
        if (entry === undefined) {
          unknown.push(raw);
          continue;
        }
        const inner = new ByteReader(raw.data, `${entry.label} (tag ${String(raw.tag)})`);
        value[entry.key] = entry.spec.type.read(inner, entry.label, context, entry.nullable);
        inner.expectEnd();
      }
      if (unknown.length > 0) value.unknownTaggedFields = unknown;
    }
    return value as StructValue<F>;
  }

  write(writer: ByteWriter, value: StructValue<F> | null, field: string, context: CodecContext): void {
    if (value === null || typeof value !== "object")
      throw invalidArgument(field, value, `not a ${this.typeName} object`);
    const plan = this.#plan(context);
    const record = value as Record<string, unknown>;
    for (const entry of plan.fields) {
      if (entry.mode !== "inline") continue;
      const item = record[entry.key];
      entry.spec.type.write(
        writer,
        item === undefined ? entry.spec.defaultValue() : item,
        entry.label,
        context,
        entry.nullable,
      );
    }
    if (!context.flexible) return;
    const tagged: RawTaggedField[] = [];
    for (const entry of plan.fields) {
      if (entry.mode !== "tagged" || entry.spec.tag === undefined) continue;
      const item = record[entry.key];
      if (item === undefined || deepEqual(item, entry.spec.defaultValue())) continue;
      const inner = new ByteWriter(64);
      entry.spec.type.write(inner, item, entry.label, context, entry.nullable);
      tagged.push({ tag: entry.spec.tag, data: inner.finish() });
    }
    for (const raw of value.unknownTaggedFields ?? []) {
      if (!plan.tagged.has(raw.tag)) tagged.push(raw);
    }
    writeTaggedFields(writer, tagged);
  }

  defaultValue(): StructValue<F> {
    const value: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(this.fields)) value[name] = spec.defaultValue();
    return value as StructValue<F>;
  }
}

/** Declares a struct type named `name` (the name appears in error messages and grammar comments). */
export function struct<F extends FieldShape>(name: string, fields: F): StructSchema<F> {
  return new StructSchema(name, fields);
}
