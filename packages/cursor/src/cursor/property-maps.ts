// Helpers for the two property maps of a cursor root: equality, the reserved internal keys of cursor properties,
// and the checks of a replacement map. Pure.
import { ErrorCode, NereusError } from "@nereus/core";

/** Cursor property keys starting with this are reserved for Nereus: kept across replacements, never set by users. */
const INTERNAL_PROPERTY_PREFIX = "#nereus.";

/** True when both property maps hold the same keys with the same values. */
export function propertyMapsEqual<V>(left: ReadonlyMap<string, V>, right: ReadonlyMap<string, V>): boolean {
  if (left.size !== right.size) return false;
  for (const [key, value] of left) {
    if (!right.has(key) || right.get(key) !== value) return false;
  }
  return true;
}

/**
 * The cursor properties after replacing the user's part of `current` with `replacement`: the internal keys of
 * `current` stay as they are.
 */
export function replacedCursorProperties(
  current: ReadonlyMap<string, string>,
  replacement: ReadonlyMap<string, string>,
): ReadonlyMap<string, string> {
  const result = new Map<string, string>();
  for (const [key, value] of current) if (key.startsWith(INTERNAL_PROPERTY_PREFIX)) result.set(key, value);
  for (const [key, value] of replacement) result.set(key, value);
  return result;
}

/** Throws INVALID_ARGUMENT unless `properties` is a Map of non-empty string keys (none internal) to strings. */
export function checkUserCursorProperties(properties: ReadonlyMap<string, string>): void {
  if (!(properties instanceof Map)) throw invalid("cursor properties must be a Map<string, string>");
  for (const [key, value] of properties) {
    if (typeof key !== "string" || key.length === 0) throw invalid("cursor property names must be non-empty strings");
    if (key.startsWith(INTERNAL_PROPERTY_PREFIX)) {
      throw invalid(`cursor property ${key} is reserved (the ${INTERNAL_PROPERTY_PREFIX} prefix is internal)`);
    }
    if (typeof value !== "string") throw invalid(`cursor property ${key} must have a string value`);
  }
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}
