// CRC32C (Castagnoli) over bytes, computed by @node-rs/crc32 (prebuilt for each platform; it uses the CPU's CRC32
// instructions where there are some). Accepts views at any offset, over ArrayBuffer or SharedArrayBuffer. Pure;
// retains no buffer.
import { crc32c as nodeRsCrc32c } from "@node-rs/crc32";

/**
 * CRC32C of `bytes` as an unsigned 32-bit number. Pass a previous result as `initial` to continue a running
 * checksum: `crc32c(b, crc32c(a)) === crc32c(concat(a, b))`.
 */
export function crc32c(bytes: Uint8Array, initial = 0): number {
  return nodeRsCrc32c(bytes, initial) >>> 0;
}
