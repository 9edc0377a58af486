// Structural equality of decoded values (numbers, bigints, strings, booleans, null, Uint8Array, arrays, plain
// objects). Used to decide whether a tagged field still equals its default and can stay off the wire.

/** True when `left` and `right` hold the same plain data. */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (left instanceof Uint8Array || right instanceof Uint8Array) {
    if (!(left instanceof Uint8Array && right instanceof Uint8Array) || left.length !== right.length) return false;
    return left.every((byte, index) => byte === right[index]);
  }
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!(Array.isArray(left) && Array.isArray(right)) || left.length !== right.length) return false;
    return left.every((item, index) => deepEqual(item, right[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const keys = Object.keys(leftRecord).filter((key) => leftRecord[key] !== undefined);
  const otherKeys = Object.keys(rightRecord).filter((key) => rightRecord[key] !== undefined);
  if (keys.length !== otherKeys.length) return false;
  return keys.every((key) => deepEqual(leftRecord[key], rightRecord[key]));
}
