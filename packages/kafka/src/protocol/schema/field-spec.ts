// A field of a struct: its wire type and the version ranges in which it exists, may be null, or travels as a
// tagged field, plus its default (what a decoder fills in for versions that lack the field, and what a tagged
// field equals when it is left off the wire). Mirrors the per-field attributes of Kafka's message specs.
import { ErrorCode, NereusError } from "@nereus/core";
import { NO_VERSIONS, parseVersionRange, type VersionRange } from "./version-range.js";
import type { NullableWireType, WireType } from "./wire-type.js";

/** A field declaration; `T` is the field's value type in decoded objects. */
export interface FieldSpec<T> {
  readonly type: WireType<unknown>;
  readonly versions: VersionRange;
  /** Versions in which null is allowed (NO_VERSIONS when never). */
  readonly nullableVersions: VersionRange;
  /** Tag number when the field is tagged in some versions. */
  readonly tag: number | undefined;
  /** Versions in which the field travels in the tagged-field section instead of in line. */
  readonly taggedVersions: VersionRange;
  /** A fresh default value. */
  readonly defaultValue: () => T;
}

/** Options shared by {@link field} and {@link nullableField}. */
export interface FieldOptions<T> {
  /** Versions in which the field exists ("0+" when omitted). */
  readonly versions?: string;
  /** Default for versions without the field and for tagged fields left off the wire (the type's default otherwise). */
  readonly default?: T;
  /** Tag number, together with `taggedVersions`. */
  readonly tag?: number;
  readonly taggedVersions?: string;
}

/** Options of a field that may be null in some versions. */
export interface NullableFieldOptions<T> extends FieldOptions<T | null> {
  readonly nullableVersions: string;
}

function build<T>(type: WireType<unknown>, options: FieldOptions<T>, nullableVersions: VersionRange): FieldSpec<T> {
  if ((options.tag === undefined) !== (options.taggedVersions === undefined)) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "a tagged field needs both tag and taggedVersions");
  }
  const fixed = options.default;
  const defaultValue = fixed === undefined ? (): T => type.defaultValue() as T : (): T => fixed;
  return {
    type,
    versions: parseVersionRange(options.versions ?? "0+"),
    nullableVersions,
    tag: options.tag,
    taggedVersions: options.taggedVersions === undefined ? NO_VERSIONS : parseVersionRange(options.taggedVersions),
    defaultValue,
  };
}

/** A field that is never null. */
export function field<T>(type: WireType<T>, options: FieldOptions<T> = {}): FieldSpec<T> {
  return build<T>(type, options, NO_VERSIONS);
}

/** A field that may be null in `options.nullableVersions`. */
export function nullableField<T>(type: NullableWireType<T>, options: NullableFieldOptions<T>): FieldSpec<T | null> {
  return build<T | null>(type, options, parseVersionRange(options.nullableVersions));
}

/** The value type of a field declaration. */
export type FieldValue<S> = S extends FieldSpec<infer T> ? T : never;
