// How a message declares its fields: number, proto2 label (required, optional or repeated) and value type. The
// TypeScript property decides the label: a required property is a required field, an optional one an optional
// field (absent on the wire ⇔ undefined, so presence survives decoding), an optional array a repeated field
// (absent when empty). `FieldsOf<T>` makes the compiler check a declaration against its interface.
import type { ProtoType } from "./proto-type.js";

/** A proto2 `required` field: decoding fails without it, encoding fails without it. */
export interface RequiredField<T> {
  readonly label: "required";
  readonly number: number;
  readonly type: ProtoType<T>;
}

/** A proto2 `optional` field: kept absent when absent (the proto default is the reader's business). */
export interface OptionalField<T> {
  readonly label: "optional";
  readonly number: number;
  readonly type: ProtoType<T>;
}

/** A proto2 `repeated` field: written unpacked, read packed or unpacked; absent when empty. */
export interface RepeatedField<T> {
  readonly label: "repeated";
  readonly number: number;
  readonly type: ProtoType<T>;
}

/** Any field declaration, as a message schema stores them. */
export type AnyField = RequiredField<unknown> | OptionalField<unknown> | RepeatedField<unknown>;

/** Declares a required field. */
export function required<T>(number: number, type: ProtoType<T>): RequiredField<T> {
  return { label: "required", number, type };
}

/** Declares an optional field. */
export function optional<T>(number: number, type: ProtoType<T>): OptionalField<T> {
  return { label: "optional", number, type };
}

/** Declares a repeated field. */
export function repeated<T>(number: number, type: ProtoType<T>): RepeatedField<T> {
  return { label: "repeated", number, type };
}

/** The field declaration that property `K` of `T` requires. */
type FieldFor<T, K extends keyof T> = undefined extends T[K]
  ? NonNullable<T[K]> extends readonly (infer Element)[]
    ? RepeatedField<Element>
    : OptionalField<NonNullable<T[K]>>
  : RequiredField<T[K]>;

/** One field declaration per property of `T`, checked against the property's type and optionality. */
export type FieldsOf<T> = { readonly [K in keyof T]-?: FieldFor<T, K> };
