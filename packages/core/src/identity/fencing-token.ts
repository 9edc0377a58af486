// Append-session fencing tokens: 128 random bits per session epoch. Only the SHA-256 hex of a token is ever
// persisted outside the stream head (in commit intents).
import { randomBytes } from "node:crypto";
import { base32LowerNoPad } from "../bytes/base32-lower-no-pad.js";
import { sha256Hex } from "../bytes/sha256.js";
import { encodeStrictUtf8 } from "../bytes/strict-utf8.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** A fresh token: 128 bits from the CSPRNG as 26 lowercase base32 characters. */
export function newFencingToken(): string {
  return base32LowerNoPad(randomBytes(16));
}

/** Recently hashed tokens (one per session epoch; every commit intent carries the hash). Cleared when full. */
const RECENT_HASHES_MAX = 1024;
const recentHashes = new Map<string, string>();

/** Hex SHA-256 of the token's UTF-8 bytes (64 lowercase hex digits). Throws INVALID_ARGUMENT for "". */
export function fencingTokenHash(token: string): string {
  const known = recentHashes.get(token);
  if (known !== undefined) return known;
  if (token.length === 0) throw new NereusError(ErrorCode.INVALID_ARGUMENT, "fencing token must not be empty");
  const hash = sha256Hex(encodeStrictUtf8(token, "fencing token"));
  if (recentHashes.size >= RECENT_HASHES_MAX) recentHashes.clear();
  recentHashes.set(token, hash);
  return hash;
}
