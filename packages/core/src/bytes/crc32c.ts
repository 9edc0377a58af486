// CRC32C (Castagnoli) over bytes, via the native @node-rs/crc32 implementation. Pure; no buffer retention.
import { crc32c as nativeCrc32c } from "@node-rs/crc32";

/**
 * CRC32C of `bytes` as an unsigned 32-bit number. Pass a previous result as `initial` to continue a running
 * checksum: `crc32c(b, crc32c(a)) === crc32c(concat(a, b))`.
 */
export function crc32c(bytes: Uint8Array, initial = 0): number {
  return nativeCrc32c(bytes, initial) >>> 0;
}
