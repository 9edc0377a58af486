// A bit-by-bit CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): slow, obviously correct, and independent of
// the native implementation in @nereus/core, for computing golden batch CRCs in tests.

/** CRC-32C of `bytes`, unsigned. */
export function referenceCrc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
