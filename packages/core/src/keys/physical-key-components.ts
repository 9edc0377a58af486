// Key components shared by every physical-target key space (object roots, BookKeeper ledger roots): the 3-digit
// shard of a SHA-256 hex hash and the 2-digit protection type slot. Providers build their own prefixes on top.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

const HASH_PATTERN = /^[0-9a-f]{64}$/;

/** True for 64 lowercase hex digits (a SHA-256 in hex). */
export function isPhysicalHash(hash: string): boolean {
  return HASH_PATTERN.test(hash);
}

/** The shard of a hash: its first byte as a 3-digit decimal ("000".."255"). `what` names the hash in errors. */
export function physicalShard(hash: string, what: string): string {
  if (!HASH_PATTERN.test(hash))
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `${what} must be 64 lowercase hex digits, got ${JSON.stringify(hash)}`,
    );
  return String(Number.parseInt(hash.slice(0, 2), 16)).padStart(3, "0");
}

/** The 2-digit key slot of a protection type id (1..99). */
export function protectionTypeSlot(typeId: number): string {
  if (!Number.isInteger(typeId) || typeId < 1 || typeId > 99)
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `protection type id ${String(typeId)} is outside 1..99`);
  return String(typeId).padStart(2, "0");
}
