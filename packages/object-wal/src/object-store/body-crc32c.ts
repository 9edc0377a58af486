// The CRC32C of a body a store is about to put: the caller's (`PutOptions.crc32c`), checked to be a CRC at all,
// or computed. Saves the stores one more pass over a body whose checksum the WAL object encoder already derived.
import { ErrorCode, NereusError, crc32c } from "@nereus/core";

/**
 * Throws unless `known` is undefined or an unsigned 32-bit integer (a put checks this before any I/O).
 * @throws NereusError INVALID_ARGUMENT
 */
export function checkKnownCrc32c(known: number | undefined): void {
  if (known === undefined || (Number.isInteger(known) && known >= 0 && known <= 0xffff_ffff)) return;
  throw new NereusError(
    ErrorCode.INVALID_ARGUMENT,
    `put crc32c must be an unsigned 32-bit integer, got ${String(known)}`,
    { retryable: false },
  );
}

/**
 * `known` when given (checked by {@link checkKnownCrc32c}), else the CRC32C of `body`.
 * @throws NereusError INVALID_ARGUMENT for a `known` that is not an unsigned 32-bit integer.
 */
export function bodyCrc32c(body: Uint8Array, known: number | undefined): number {
  checkKnownCrc32c(known);
  return known ?? crc32c(body);
}
