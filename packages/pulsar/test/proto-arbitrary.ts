// fast-check arbitraries derived from message schemas: every declared field gets values of its type (required
// fields always, optional ones sometimes, repeated ones as one to three elements, enums named or not), so a round
// trip property covers each message without a hand-written generator per message.
import fc from "fast-check";
import { MessageSchema } from "../src/protocol/wire/message-schema.js";
import type { ProtoType } from "../src/protocol/wire/proto-type.js";

/** Options of {@link arbitraryOf}. */
export interface ArbitraryOptions {
  /** Largest magnitude of 64-bit integers (a peer that holds them in doubles needs 2^53-1). */
  readonly maxInt64Magnitude?: bigint;
  /** Keeps only the optional and repeated fields this accepts (required fields are always generated). */
  readonly includeField?: (message: string, key: string) => boolean;
  /** Message nesting beyond which optional message fields are left out; default 2. */
  readonly maxDepth?: number;
}

const INT32_MIN = -0x8000_0000;
const INT32_MAX = 0x7fff_ffff;

/** Values of `schema`'s decoded type. */
export function arbitraryOf<T extends object>(
  schema: MessageSchema<T>,
  options: ArbitraryOptions = {},
  depth = 0,
): fc.Arbitrary<T> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  for (const { key, field } of schema.fields) {
    const isRequired = field.label === "required";
    if (!isRequired && !(options.includeField?.(schema.name, key) ?? true)) continue;
    const element = valueArbitrary(field.type, options, depth, isRequired);
    if (element === undefined) continue;
    model[key] = field.label === "repeated" ? fc.array(element, { minLength: 1, maxLength: 3 }) : element;
    if (isRequired) requiredKeys.push(key);
  }
  return fc.record(model, { requiredKeys }) as unknown as fc.Arbitrary<T>;
}

function valueArbitrary(
  type: ProtoType<unknown>,
  options: ArbitraryOptions,
  depth: number,
  isRequired: boolean,
): fc.Arbitrary<unknown> | undefined {
  const nested =
    type instanceof MessageSchema ? type : "resolve" in type ? (type.resolve as () => unknown)() : undefined;
  if (nested instanceof MessageSchema) {
    if (!isRequired && depth >= (options.maxDepth ?? 2)) return undefined;
    return arbitraryOf(nested as MessageSchema<object>, options, depth + 1);
  }
  if ("table" in type) {
    const named = Object.values(type.table as Record<string, number>);
    return fc.oneof(fc.constantFrom(...named), fc.integer({ min: INT32_MIN, max: INT32_MAX }));
  }
  const magnitude = options.maxInt64Magnitude;
  switch (type.name) {
    case "uint64":
      return fc.bigInt({ min: 0n, max: magnitude ?? (1n << 64n) - 1n });
    case "int64":
      return fc.bigInt({
        min: magnitude === undefined ? -(1n << 63n) : -magnitude,
        max: magnitude ?? (1n << 63n) - 1n,
      });
    case "uint32":
      return fc.integer({ min: 0, max: 0xffff_ffff });
    case "int32":
      return fc.integer({ min: INT32_MIN, max: INT32_MAX });
    case "bool":
      return fc.boolean();
    case "double":
      return fc.double();
    case "string":
      return fc.string({ unit: "grapheme", maxLength: 12 });
    case "bytes":
      return fc.uint8Array({ maxLength: 12 });
    default:
      throw new Error(`no arbitrary for protobuf type ${type.name}`);
  }
}
