// SHA-256 digests (node:crypto). Returned arrays are fresh and owned by the caller.
import { createHash } from "node:crypto";

/** SHA-256 of `bytes` (32 bytes). */
export function sha256(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(bytes).digest());
}

/** SHA-256 of `bytes` as 64 lowercase hex digits. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
