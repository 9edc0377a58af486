// A SCRAM credential as the server keeps it (RFC 5802): salt, iteration count, StoredKey = H(HMAC(SaltedPassword,
// "Client Key")) and ServerKey = HMAC(SaltedPassword, "Server Key"). Neither the password nor the salted password
// is kept: StoredKey verifies a client proof, ServerKey signs the server's answer. Passwords are taken as their
// UTF-8 bytes (Kafka does not apply SASLprep either).
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import { ErrorCode, NereusError } from "@nereus/core";
import type { ScramMechanism } from "./scram-mechanism.js";

/** A stored SCRAM credential. Invariant: `storedKey` and `serverKey` are `mechanism.keyBytes` long; salt non-empty. */
export interface ScramCredential {
  readonly salt: Uint8Array;
  readonly iterations: number;
  readonly storedKey: Uint8Array;
  readonly serverKey: Uint8Array;
}

/** Salt length of credentials made here from a password (Kafka's client makes salts of this order). */
const SALT_BYTES = 32;

/** HMAC of `data` under `key` with the mechanism's hash. */
export function scramHmac(mechanism: ScramMechanism, key: Uint8Array, data: Uint8Array | string): Uint8Array {
  return createHmac(mechanism.hash, key).update(data).digest();
}

/** The mechanism's hash of `data`. */
export function scramHash(mechanism: ScramMechanism, data: Uint8Array): Uint8Array {
  return createHash(mechanism.hash).update(data).digest();
}

/** Hi(password, salt, iterations) of RFC 5802: PBKDF2 with the mechanism's HMAC, one block of output. */
function saltedPassword(mechanism: ScramMechanism, password: string, salt: Uint8Array, iterations: number): Uint8Array {
  checkIterations(mechanism, iterations);
  return pbkdf2Sync(Buffer.from(password, "utf8"), salt, iterations, mechanism.keyBytes, mechanism.hash);
}

/** The credential of a salted password (what AlterUserScramCredentials carries). */
export function credentialFromSaltedPassword(
  mechanism: ScramMechanism,
  salted: Uint8Array,
  salt: Uint8Array,
  iterations: number,
): ScramCredential {
  checkIterations(mechanism, iterations);
  if (salt.length === 0) throw invalid("a SCRAM salt must not be empty");
  if (salted.length !== mechanism.keyBytes) {
    throw invalid(`a ${mechanism.name} salted password is ${String(mechanism.keyBytes)} bytes`);
  }
  const clientKey = scramHmac(mechanism, salted, "Client Key");
  return {
    salt: Uint8Array.from(salt),
    iterations,
    storedKey: scramHash(mechanism, clientKey),
    serverKey: scramHmac(mechanism, salted, "Server Key"),
  };
}

/** A new credential for `password` with a random salt. */
export function credentialFromPassword(
  mechanism: ScramMechanism,
  password: string,
  iterations: number,
  salt: Uint8Array = randomBytes(SALT_BYTES),
): ScramCredential {
  return credentialFromSaltedPassword(
    mechanism,
    saltedPassword(mechanism, password, salt, iterations),
    salt,
    iterations,
  );
}

/** Throws INVALID_ARGUMENT unless `iterations` is an integer within the mechanism's bounds. */
function checkIterations(mechanism: ScramMechanism, iterations: number): void {
  if (!Number.isInteger(iterations) || iterations < mechanism.minIterations || iterations > mechanism.maxIterations) {
    throw invalid(
      `${mechanism.name} iterations must be within ${String(mechanism.minIterations)}..${String(mechanism.maxIterations)}, got ${String(iterations)}`,
    );
  }
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}
