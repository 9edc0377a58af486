// Types for the xxHash32 module shipped inside lz4js (used for LZ4 frame checksums).
declare module "lz4js/xxh32.js" {
  /** xxHash32 of `source[index, index + length)` with `seed`, as an unsigned 32-bit number. */
  export function hash(seed: number, source: Uint8Array, index: number, length: number): number;
}
