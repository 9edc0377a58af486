// Computes entry and LAC digests as BookKeeper's DigestManager does: over the fixed header bytes followed by the
// payload, never over the digest itself. CRC32 (zlib, stored as a big-endian int64 with a zero upper half),
// CRC32C (stored as a big-endian int32), HMAC-SHA1 keyed with SHA-1("mac" ‖ password), DUMMY (empty). Stateless
// after construction; safe to share across handles of one ledger.
import { crc32 as zlibCrc32 } from "node:zlib";
import { createHmac } from "node:crypto";
import { crc32c } from "@nereus/core";
import { DIGEST_LENGTH, type DigestType } from "./digest-type.js";
import { padDigest, passwordBytes } from "./master-key.js";

/** Digest computation of one ledger (digest type plus, for HMAC, the password-derived key). */
export interface DigestManager {
  readonly type: DigestType;
  /** Digest length in bytes (8, 4, 20 or 0). */
  readonly length: number;
  /** Digest of the concatenation of `parts`, as stored on the wire. */
  compute(parts: readonly Uint8Array[]): Uint8Array;
}

/** Creates the digest computation of `type`; `password` matters only for HMAC. */
export function createDigestManager(type: DigestType, password: string | Uint8Array): DigestManager {
  const length = DIGEST_LENGTH[type];
  switch (type) {
    case "CRC32":
      return {
        type,
        length,
        compute(parts) {
          let value = 0;
          for (const part of parts) value = zlibCrc32(part, value);
          const out = new Uint8Array(8);
          new DataView(out.buffer).setUint32(4, value >>> 0);
          return out;
        },
      };
    case "CRC32C":
      return {
        type,
        length,
        compute(parts) {
          let value = 0;
          for (const part of parts) value = crc32c(part, value);
          const out = new Uint8Array(4);
          new DataView(out.buffer).setUint32(0, value);
          return out;
        },
      };
    case "HMAC": {
      const key = padDigest("mac", passwordBytes(password));
      return {
        type,
        length,
        compute(parts) {
          const hmac = createHmac("sha1", key);
          for (const part of parts) hmac.update(part);
          return new Uint8Array(hmac.digest());
        },
      };
    }
    case "DUMMY":
      return { type, length, compute: () => new Uint8Array(0) };
  }
}
