// Lowercase hexadecimal for digests and fixtures. The decoder is strict: even length, lowercase digits only.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

const HEX_PATTERN = /^(?:[0-9a-f]{2})*$/;

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/** Parses lowercase, even-length hex; anything else throws `NereusError(DECODE_ERROR)`. */
export function fromHex(hex: string): Uint8Array {
  if (!HEX_PATTERN.test(hex)) {
    throw new NereusError(ErrorCode.DECODE_ERROR, "hex string must be lowercase with an even number of digits");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let index = 0; index < out.length; index += 1) {
    out[index] = (hexValue(hex.charCodeAt(index * 2)) << 4) | hexValue(hex.charCodeAt(index * 2 + 1));
  }
  return out;
}

/** Value of one lowercase hex digit's char code (the caller has checked it is in [0-9a-f]). */
function hexValue(code: number): number {
  return code <= 0x39 ? code - 0x30 : code - 0x57;
}
