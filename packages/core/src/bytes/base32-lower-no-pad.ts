// RFC 4648 base32 in lowercase without padding: the alphabet of stream ids, commit ids and encoded key
// components (safe in etcd keys, S3 keys and file names). The decoder accepts only the canonical form.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const VALUES = new Map<string, number>([...ALPHABET].map((character, index) => [character, index]));

/** ASCII codes of the alphabet. */
const CODES = Uint8Array.from([...ALPHABET].map((character) => character.charCodeAt(0)));
const ASCII = new TextDecoder("latin1");

/** Encodes `bytes` as lowercase base32 without `=` padding (8 characters per 5 bytes, rounded up). */
export function base32LowerNoPad(bytes: Uint8Array): string {
  // Characters go into one byte array decoded once (ids are encoded per append: no string per character).
  const out = new Uint8Array(Math.ceil((bytes.length * 8) / 5));
  let written = 0;
  let buffer = 0;
  let bits = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    buffer = ((buffer << 8) | (bytes[index] as number)) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out[written++] = CODES[(buffer >>> bits) & 31] as number;
    }
  }
  if (bits > 0) out[written] = CODES[(buffer << (5 - bits)) & 31] as number;
  return ASCII.decode(out);
}

/**
 * Decodes the output of `base32LowerNoPad`. Rejects (NereusError DECODE_ERROR) characters outside the lowercase
 * alphabet, padding, impossible lengths and non-zero trailing bits, so every byte string has exactly one encoding.
 */
export function decodeBase32LowerNoPad(text: string): Uint8Array {
  const remainder = text.length % 8;
  if (remainder === 1 || remainder === 3 || remainder === 6) {
    throw new NereusError(ErrorCode.DECODE_ERROR, `base32 text has impossible length ${String(text.length)}`);
  }
  const out = new Uint8Array(Math.floor((text.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let written = 0;
  for (let index = 0; index < text.length; index += 1) {
    const value = VALUES.get(text.charAt(index));
    if (value === undefined) {
      throw new NereusError(ErrorCode.DECODE_ERROR, `base32 text has an invalid character at index ${String(index)}`);
    }
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[written] = (buffer >>> bits) & 0xff;
      written += 1;
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) {
    throw new NereusError(ErrorCode.DECODE_ERROR, "base32 text has non-zero trailing bits (not canonical)");
  }
  return out;
}
