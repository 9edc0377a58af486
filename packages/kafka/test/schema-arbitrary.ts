// fast-check arbitraries derived from a message schema for one version (absent fields at their defaults, null only
// where the version allows it, random unknown tags in flexible versions), and the projection of a full value onto
// a version (what a decoder returns after the encoder dropped the fields the version lacks).
import fc from "fast-check";
import type { ArrayType } from "../src/protocol/schema/array-type.js";
import type { FieldSpec } from "../src/protocol/schema/field-spec.js";
import type { MessageSchema } from "../src/protocol/schema/message-schema.js";
import * as scalars from "../src/protocol/schema/scalar-types.js";
import { type FieldShape, StructSchema } from "../src/protocol/schema/struct-schema.js";
import { inVersionRange } from "../src/protocol/schema/version-range.js";
import type { CodecContext, WireType } from "../src/protocol/schema/wire-type.js";

const SCALARS = new Map<WireType<unknown>, fc.Arbitrary<unknown>>([
  [scalars.int8, fc.integer({ min: -128, max: 127 })],
  [scalars.int16, fc.integer({ min: -32768, max: 32767 })],
  [scalars.uint16, fc.integer({ min: 0, max: 0xffff })],
  [scalars.int32, fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })],
  [scalars.uint32, fc.integer({ min: 0, max: 2 ** 32 - 1 })],
  [scalars.int64, fc.maxSafeInteger()],
  [scalars.int64BigInt, fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })],
  [scalars.float64, fc.double()],
  [scalars.bool, fc.boolean()],
  [scalars.uuid, fc.uuid()],
  [scalars.string, fc.string({ unit: "grapheme", maxLength: 12 })],
  [scalars.bytes, fc.uint8Array({ maxLength: 12 })],
  [scalars.records, fc.uint8Array({ maxLength: 24 })],
  // Encoders also take RecordParts, decoders give one array: round trips use arrays (parts: sharing-byte-writer.test).
  [scalars.recordParts, fc.uint8Array({ maxLength: 24 })],
]);

function typeArbitrary(type: WireType<unknown>, context: CodecContext): fc.Arbitrary<unknown> {
  const scalar = SCALARS.get(type);
  if (scalar !== undefined) return scalar;
  if (type instanceof StructSchema) return structArbitrary(type as StructSchema<FieldShape>, context);
  const element = (type as Partial<ArrayType<unknown>>).element;
  if (element !== undefined) return fc.array(typeArbitrary(element, context), { maxLength: 3 });
  throw new Error(`no arbitrary for ${type.typeName}`);
}

function present(spec: FieldSpec<unknown>, context: CodecContext): boolean {
  return inVersionRange(spec.versions, context.version);
}

function structArbitrary(
  schema: StructSchema<FieldShape>,
  context: CodecContext,
): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  const usedTags = new Set<number>();
  for (const [name, spec] of Object.entries(schema.fields)) {
    if (!present(spec, context)) {
      fields[name] = fc.constant(null).map(() => spec.defaultValue());
      continue;
    }
    if (spec.tag !== undefined) usedTags.add(spec.tag);
    const value = typeArbitrary(spec.type, context);
    fields[name] = inVersionRange(spec.nullableVersions, context.version) ? fc.option(value, { nil: null }) : value;
  }
  const base = fc.record(fields);
  if (!context.flexible) return base;
  const unknown = fc
    .uniqueArray(
      fc.integer({ min: 0, max: 300 }).filter((tag) => !usedTags.has(tag)),
      { maxLength: 2 },
    )
    .chain((tagList) =>
      fc.tuple(
        ...tagList
          .sort((left, right) => left - right)
          .map((tag) => fc.uint8Array({ maxLength: 4 }).map((data) => ({ tag, data }))),
      ),
    );
  return fc
    .tuple(base, fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: unknown }))
    .map(([value, extra]) => (extra.length > 0 ? { ...value, unknownTaggedFields: extra } : value));
}

/** Values of `schema` valid in `version`. */
export function messageArbitrary(
  schema: MessageSchema<FieldShape>,
  version: number,
): fc.Arbitrary<Record<string, unknown>> {
  return structArbitrary(schema.body, { version, flexible: schema.isFlexible(version) });
}

function projectType(type: WireType<unknown>, value: unknown, context: CodecContext): unknown {
  if (value === null) return null;
  if (type instanceof StructSchema)
    return projectStruct(type as StructSchema<FieldShape>, value as Record<string, unknown>, context);
  const element = (type as Partial<ArrayType<unknown>>).element;
  if (element !== undefined) return (value as unknown[]).map((item) => projectType(element, item, context));
  return value;
}

function projectStruct(
  schema: StructSchema<FieldShape>,
  value: Record<string, unknown>,
  context: CodecContext,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(schema.fields)) {
    out[name] = present(spec, context) ? projectType(spec.type, value[name], context) : spec.defaultValue();
  }
  return out;
}

/** `value` as a decoder returns it after encoding in `version` (absent fields at their defaults). */
export function projectToVersion<T>(schema: MessageSchema<FieldShape>, value: T, version: number): T {
  return projectStruct(schema.body, value as Record<string, unknown>, {
    version,
    flexible: schema.isFlexible(version),
  }) as T;
}
