// Authentication of Pulsar clients by the credentials of CONNECT and AUTH_RESPONSE (method name + data): the `token`
// method (a JWT checked by the TokenVerifier) gives the token's role; a client without credentials (no method, or
// `none`) gets the anonymous role when one is configured and is refused otherwise; any other method is refused.
import { ErrorCode, NereusError } from "@nereus/core";
import { authenticationRefused } from "./auth-refusal.js";
import type { TokenVerifier, VerifiedToken } from "./token-verifier.js";

/** How often a connection's credentials are checked for expiry, by default (Pulsar's 60 s). */
const DEFAULT_AUTH_REFRESH_CHECK_MS = 60_000;

/** The method name of token credentials. */
export const TOKEN_AUTH_METHOD = "token";

export interface PulsarAuthenticationOptions {
  readonly verifier: TokenVerifier;
  /** The role of clients that present no credentials (default: they are refused). */
  readonly anonymousRole?: string;
  /** How often a connection checks whether its credentials expired (default 60 s). */
  readonly refreshCheckMs?: number;
}

/** Who a client authenticated as; `expiresAtMillis` undefined: the credentials never expire. */
export type AuthenticatedRole = VerifiedToken;

/** Authenticates clients (see the module comment). */
export class PulsarAuthentication {
  readonly refreshCheckMs: number;
  readonly #verifier: TokenVerifier;
  readonly #anonymousRole: string | undefined;

  /** INVALID_ARGUMENT for a bad option. */
  constructor(options: PulsarAuthenticationOptions) {
    const refreshCheckMs = options.refreshCheckMs ?? DEFAULT_AUTH_REFRESH_CHECK_MS;
    if (!Number.isSafeInteger(refreshCheckMs) || refreshCheckMs < 1) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, `refreshCheckMs must be a positive integer`, {
        retryable: false,
      });
    }
    if (options.anonymousRole === "") {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, "anonymousRole must not be empty", { retryable: false });
    }
    this.refreshCheckMs = refreshCheckMs;
    this.#verifier = options.verifier;
    this.#anonymousRole = options.anonymousRole;
  }

  /** The verifier of token credentials (the admin API checks bearer tokens with it). */
  get tokens(): TokenVerifier {
    return this.#verifier;
  }

  /** The role `data` authenticates under `methodName`; rejects with a PulsarAuthRefusal. */
  async authenticate(methodName: string | undefined, data: Uint8Array | undefined): Promise<AuthenticatedRole> {
    if (methodName === undefined || methodName === "" || methodName === "none") {
      if (this.#anonymousRole !== undefined) return { role: this.#anonymousRole, expiresAtMillis: undefined };
      throw authenticationRefused("Authentication required: no credentials and no anonymous role");
    }
    if (methodName !== TOKEN_AUTH_METHOD) {
      throw authenticationRefused(`Unsupported authentication method ${JSON.stringify(methodName.slice(0, 64))}`);
    }
    let token: string;
    try {
      token = new TextDecoder("utf-8", { fatal: true }).decode(data ?? new Uint8Array());
    } catch (cause) {
      throw authenticationRefused("Failed to authentication token: not UTF-8", cause);
    }
    if (token.length === 0) throw authenticationRefused("Failed to authentication token: empty token");
    return this.#verifier.verify(token);
  }
}
