// CRC32C (Castagnoli, reflected polynomial 0x82F63B78) for checksum tests, so the expected value does not
// come from the SDK under test.
const TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  TABLE[n] = c >>> 0;
}

/** CRC32C of `data` as 4 big-endian bytes (the x-amz-checksum-crc32c encoding before base64). */
export function crc32c(data: Uint8Array): Buffer {
  let crc = 0xffffffff;
  for (const byte of data) crc = (TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return out;
}
