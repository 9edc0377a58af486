// Verification of Pulsar's token credentials, as Apache Pulsar's AuthenticationProviderToken checks them: a JWS
// compact JWT signed with the broker's secret key (HS256, HS384 or HS512) or with the private half of its public key
// (RS256 by default, or the configured RSA-PSS / ECDSA algorithm). The signature is checked by the `jose` library
// against that one key and its algorithm family only (an unsigned `alg: none` token, or one signed with another
// family, never passes); `exp` and `nbf` are enforced when present (a token without `exp` never expires, as in
// Pulsar); the role is the configured claim (`sub` by default); with an audience configured, the audience claim must
// name it. Refusals are PulsarAuthRefusals whose messages never contain the token.
import { type KeyObject, createPublicKey, createSecretKey } from "node:crypto";
import { ErrorCode, NereusError } from "@nereus/core";
import { errors as joseErrors, jwtVerify } from "jose";
import { authenticationRefused } from "./auth-refusal.js";

/** Asymmetric algorithms a public key may verify (Pulsar's `tokenPublicAlg`). */
export const TOKEN_PUBLIC_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
] as const;

export type TokenPublicAlgorithm = (typeof TOKEN_PUBLIC_ALGORITHMS)[number];

/** HMAC algorithms a secret key verifies. */
const SECRET_ALGORITHMS = ["HS256", "HS384", "HS512"];

/** Shortest secret key accepted, in bytes (256 bits, what HS256 needs and Pulsar's `create-secret-key` writes). */
const MIN_SECRET_KEY_BYTES = 32;

/** Longest token accepted, in UTF-8 bytes (longer credentials are refused without parsing). */
export const MAX_TOKEN_BYTES = 64 * 1024;

/** The key tokens are verified with: the shared secret, or a public key (PEM text, or DER SPKI bytes). */
export type TokenKey =
  | { readonly kind: "secret"; readonly bytes: Uint8Array }
  | { readonly kind: "public"; readonly key: string | Uint8Array; readonly algorithm?: TokenPublicAlgorithm };

export interface TokenVerifierOptions {
  readonly key: TokenKey;
  /** The claim naming the role (default `sub`). */
  readonly roleClaim?: string;
  /** When set, tokens must name this audience in `audienceClaim`. */
  readonly audience?: string;
  /** The claim carrying the audience (default `aud`); a string or an array of strings. */
  readonly audienceClaim?: string;
  /** Tolerated clock difference when checking `exp` and `nbf`, in seconds (default 0). */
  readonly clockSkewSeconds?: number;
  /** Wall clock in milliseconds (default Date.now). */
  readonly clock?: () => number;
}

/** What a valid token says. */
export interface VerifiedToken {
  /** The role the token authenticates (its role claim, non-empty). */
  readonly role: string;
  /** When the token expires (its `exp`, in milliseconds), undefined when it never does. */
  readonly expiresAtMillis: number | undefined;
}

/** Checks tokens against one key. */
export interface TokenVerifier {
  /** The token's role and expiry; rejects with a PulsarAuthRefusal (kind `authentication`) for any invalid token. */
  verify(token: string): Promise<VerifiedToken>;
}

/** Creates a verifier for `options.key`; INVALID_ARGUMENT for an unusable key or option, before any verification. */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const { key, algorithms } = verificationKeyOf(options.key);
  const roleClaim = options.roleClaim ?? "sub";
  const audienceClaim = options.audienceClaim ?? "aud";
  const { audience } = options;
  if (roleClaim.length === 0 || audienceClaim.length === 0 || audience === "") {
    throw invalid("roleClaim, audienceClaim and audience must not be empty");
  }
  const clockTolerance = options.clockSkewSeconds ?? 0;
  if (!Number.isSafeInteger(clockTolerance) || clockTolerance < 0) {
    throw invalid(`clockSkewSeconds must be a non-negative integer, got ${String(clockTolerance)}`);
  }
  const clock = options.clock ?? Date.now;
  return {
    async verify(token) {
      if (Buffer.byteLength(token) > MAX_TOKEN_BYTES) {
        throw authenticationRefused(`Failed to authentication token: longer than ${String(MAX_TOKEN_BYTES)} bytes`);
      }
      let payload: Readonly<Record<string, unknown>>;
      try {
        ({ payload } = await jwtVerify(token, key, { algorithms, clockTolerance, currentDate: new Date(clock()) }));
      } catch (error) {
        throw authenticationRefused(`Failed to authentication token: ${reasonOf(error)}`, error);
      }
      if (audience !== undefined && !namesAudience(payload[audienceClaim], audience)) {
        throw authenticationRefused(
          `Failed to authentication token: the ${audienceClaim} claim does not name this broker`,
        );
      }
      const role = payload[roleClaim];
      if (typeof role !== "string" || role.length === 0) {
        throw authenticationRefused(`Failed to authentication token: no ${roleClaim} claim`);
      }
      const exp = payload["exp"];
      return { role, expiresAtMillis: typeof exp === "number" ? exp * 1_000 : undefined };
    },
  };
}

function verificationKeyOf(key: TokenKey): { key: KeyObject; algorithms: string[] } {
  if (key.kind === "secret") {
    if (key.bytes.length < MIN_SECRET_KEY_BYTES) {
      throw invalid(`the token secret key must be at least ${String(MIN_SECRET_KEY_BYTES)} bytes`);
    }
    return { key: createSecretKey(key.bytes), algorithms: SECRET_ALGORITHMS };
  }
  const algorithm = key.algorithm ?? "RS256";
  if (!TOKEN_PUBLIC_ALGORITHMS.includes(algorithm)) throw invalid(`unknown token algorithm ${String(algorithm)}`);
  let publicKey: KeyObject;
  try {
    publicKey =
      typeof key.key === "string"
        ? createPublicKey(key.key)
        : createPublicKey({ key: Buffer.from(key.key), format: "der", type: "spki" });
  } catch (cause) {
    throw invalid("the token public key is not a PEM or DER (SPKI) public key", cause);
  }
  const family = algorithm.startsWith("ES") ? ["ec"] : algorithm.startsWith("PS") ? ["rsa", "rsa-pss"] : ["rsa"];
  if (!family.includes(publicKey.asymmetricKeyType ?? "")) {
    throw invalid(`the token public key is a ${String(publicKey.asymmetricKeyType)} key, not one for ${algorithm}`);
  }
  return { key: publicKey, algorithms: [algorithm] };
}

function namesAudience(claim: unknown, audience: string): boolean {
  if (typeof claim === "string") return claim === audience;
  return Array.isArray(claim) && claim.includes(audience);
}

/** What was wrong with a token, in words that never quote it. */
function reasonOf(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "the token expired";
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `claim ${error.claim} is invalid (${error.reason})`;
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return "the token's algorithm is not accepted";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return "the signature does not match the key";
  if (error instanceof joseErrors.JOSEError) return `malformed token (${error.code})`;
  return "malformed token";
}

function invalid(message: string, cause?: unknown): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false, cause });
}
