// Entry digest types of BookKeeper and their numbers in the ledger metadata (DataFormats.proto `DigestType`).
// The Java client calls HMAC "MAC"; the metadata and this client say HMAC.

/** How entries of a ledger are checksummed. */
export type DigestType = "CRC32" | "HMAC" | "CRC32C" | "DUMMY";

/** Metadata enum value of each digest type (durable; never renumber). */
export const DIGEST_TYPE_NUMBER: Readonly<Record<DigestType, number>> = { CRC32: 1, HMAC: 2, CRC32C: 3, DUMMY: 4 };

/** Digest type of a metadata enum value, or `undefined` for a value this client does not know. */
export function digestTypeFromNumber(value: number): DigestType | undefined {
  switch (value) {
    case 1:
      return "CRC32";
    case 2:
      return "HMAC";
    case 3:
      return "CRC32C";
    case 4:
      return "DUMMY";
    default:
      return undefined;
  }
}

/** Digest length in bytes of each type: CRC32 is stored as an int64, CRC32C as an int32, HMAC-SHA1 raw. */
export const DIGEST_LENGTH: Readonly<Record<DigestType, number>> = { CRC32: 8, HMAC: 20, CRC32C: 4, DUMMY: 0 };
