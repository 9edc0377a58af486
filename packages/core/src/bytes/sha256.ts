// SHA-256 digests (node:crypto's one-shot `hash`: no Hash object per digest). Returned arrays are fresh and owned
// by the caller; inputs are only read (a view such as `ByteWriter.view()` is fine).
import { hash } from "node:crypto";

/** SHA-256 of `bytes` (32 bytes). */
export function sha256(bytes: Uint8Array): Uint8Array {
  // A "binary" (latin1) digest string (one char per byte) avoids the off-heap Buffer a "buffer" digest allocates.
  const digest = hash("sha256", bytes, "binary");
  const out = new Uint8Array(digest.length);
  for (let index = 0; index < digest.length; index += 1) out[index] = digest.charCodeAt(index);
  return out;
}

/** SHA-256 of `bytes` as 64 lowercase hex digits. */
export function sha256Hex(bytes: Uint8Array): string {
  return hash("sha256", bytes, "hex");
}
