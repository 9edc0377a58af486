// The S3 text form of a CRC32C (x-amz-checksum-crc32c): base64 of the checksum as a big-endian u32.
import { ErrorCode, NereusError } from "@nereus/core";

/** Base64 of `crc` as 4 big-endian bytes, e.g. 0xe3069283 → "4waSgw==". */
export function crc32cToBase64(crc: number): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc >>> 0);
  return bytes.toString("base64");
}

/** Parses the S3 text form back; anything but 4 bytes of canonical base64 is a DECODE_ERROR. */
export function crc32cFromBase64(text: string): number {
  const bytes = Buffer.from(text, "base64");
  if (bytes.length !== 4 || bytes.toString("base64") !== text) {
    throw new NereusError(ErrorCode.DECODE_ERROR, `not a base64 CRC32C: ${JSON.stringify(text)}`, { retryable: false });
  }
  return bytes.readUInt32BE(0);
}
