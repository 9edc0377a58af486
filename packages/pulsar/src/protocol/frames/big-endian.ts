// Big-endian reads of the fixed-width frame fields, straight from the bytes (a DataView per frame costs an
// allocation on the hot path). The caller has checked that the bytes are there.

/** The u16 at `at`. */
export function readUint16(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

/** The u32 at `at`. */
export function readUint32(bytes: Uint8Array, at: number): number {
  return (
    (((bytes[at] ?? 0) << 24) | ((bytes[at + 1] ?? 0) << 16) | ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0)) >>> 0
  );
}
