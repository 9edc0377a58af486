// Lexicographic byte comparison: the order of UTF-8-encoded keys in canonical maps and in metadata scans, and the
// exact-equality check behind put-if-absent-or-equal idempotency.

/** Negative, zero or positive as `a` sorts before, equal to or after `b` (unsigned bytes, shorter prefix first). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const shared = Math.min(a.length, b.length);
  for (let index = 0; index < shared; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

/** True when `a` and `b` hold exactly the same bytes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && compareBytes(a, b) === 0;
}
