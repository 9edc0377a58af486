// Renders a message schema as the grammar comment that sits above its declaration: one line per field with its
// type and the versions in which it exists, is nullable or is tagged; struct fields are indented below their
// parent. A test compares these lines with the comments in the source, so the comments cannot drift.
import type { ArrayType } from "./array-type.js";
import type { MessageSchema } from "./message-schema.js";
import { type FieldShape, StructSchema } from "./struct-schema.js";
import { NO_VERSIONS, formatVersionRange } from "./version-range.js";
import type { WireType } from "./wire-type.js";

function structOf(type: WireType<unknown>): StructSchema<FieldShape> | undefined {
  if (type instanceof StructSchema) return type as StructSchema<FieldShape>;
  const element = (type as Partial<ArrayType<unknown>>).element;
  return element === undefined ? undefined : structOf(element);
}

function describeFields(fields: FieldShape, depth: number, lines: string[]): void {
  for (const [name, spec] of Object.entries(fields)) {
    const notes: string[] = [];
    if (formatVersionRange(spec.versions) !== "0+") notes.push(`v${formatVersionRange(spec.versions)}`);
    if (spec.nullableVersions !== NO_VERSIONS) notes.push(`nullable v${formatVersionRange(spec.nullableVersions)}`);
    if (spec.tag !== undefined) notes.push(`tag ${String(spec.tag)} v${formatVersionRange(spec.taggedVersions)}`);
    lines.push(
      `${"  ".repeat(depth)}${name}: ${spec.type.typeName}${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`,
    );
    const nested = structOf(spec.type);
    if (nested !== undefined) describeFields(nested.fields, depth + 1, lines);
  }
}

/** The grammar lines of `schema`, starting with a title line. */
export function describeSchema(schema: MessageSchema<FieldShape>): string[] {
  const flexible = schema.flexibleFrom === Infinity ? "never flexible" : `flexible v${String(schema.flexibleFrom)}+`;
  const lines = [
    `${schema.name} (api key ${String(schema.apiKey)}), v${formatVersionRange(schema.validVersions)}, ${flexible}`,
  ];
  describeFields(schema.body.fields, 1, lines);
  return lines;
}
