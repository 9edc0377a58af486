// Copies bytes between views with the platform's memcpy. `Uint8Array.prototype.set` copies into or out of a
// SharedArrayBuffer with relaxed atomic stores, and byte by byte whenever source and target are not 8-byte aligned
// to each other — the usual case for a record batch taken from inside a request frame: measured 2.7 GB/s against
// 15-23 GB/s for memcpy on 64 KiB copies. Node's `Buffer.prototype.fill` with a view as its value is a plain
// memcpy into any Uint8Array, shared or not. Pure; retains nothing.

const nativeFill = Buffer.prototype.fill;

/** Below this many bytes `set` is as fast (no call into the runtime). */
const NATIVE_COPY_MIN_BYTES = 512;

/**
 * Copies all of `source` into `target` at `targetOffset`; the result is that of `target.set(source, targetOffset)`,
 * and a copy that does not fit throws a `RangeError` before writing anything. Views over the same buffer (which may
 * overlap) are copied with `set`, so overlapping copies stay correct.
 */
export function copyBytes(target: Uint8Array, source: Uint8Array, targetOffset = 0): void {
  const length = source.length;
  if (length < NATIVE_COPY_MIN_BYTES || source.buffer === target.buffer) {
    target.set(source, targetOffset);
    return;
  }
  if (!Number.isInteger(targetOffset) || targetOffset < 0 || targetOffset + length > target.length) {
    throw new RangeError(
      `copyBytes: ${String(length)} bytes do not fit at offset ${String(targetOffset)} of a ${String(target.length)}-byte view`,
    );
  }
  nativeFill.call(target, source, targetOffset, targetOffset + length);
}
