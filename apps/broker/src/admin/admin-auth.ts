// The gate of the admin HTTP API: who a request is. A bearer token (Authorization: Bearer <token>) is compared with
// every configured token in constant time (SHA-256 digests compared with timingSafeEqual, all of them, so neither
// the match nor its position shows in the timing); a client certificate verified by the admin TLS listener counts
// when `clientCertificates` is on. Paths in `publicPaths` need nothing. Without any configured credential every
// request is let in as the anonymous principal. Tokens are never logged or echoed.
import { createHash, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { TLSSocket } from "node:tls";
import { type AdminAuthConfig, adminAuthRequired } from "../config/admin-auth-config.js";
import { verifiedPeerSubject } from "../listener/certificate-subject.js";

/** Who an admin request acts as. */
export interface AdminPrincipal {
  /** The token's name, the certificate subject ("CN=...,O=..."), or "anonymous" when no credential is required. */
  readonly name: string;
  readonly via: "token" | "certificate" | "anonymous";
}

/** The outcome of {@link AdminAuthenticator.authenticate}. */
type AdminAuthentication =
  | { readonly ok: true; readonly principal: AdminPrincipal }
  | {
      readonly ok: false;
      /** The WWW-Authenticate header of the 401 answer. */
      readonly challenge: string;
      /** Why, without any credential in it (for the 401 body and logs). */
      readonly reason: string;
    };

/** Decides who admin requests are. */
export interface AdminAuthenticator {
  /** Whether `path` is served without credentials. */
  isPublic(path: string): boolean;
  /** The principal of `request`, from its bearer token or verified client certificate. */
  authenticate(request: http.IncomingMessage): AdminAuthentication;
}

const REALM = 'Bearer realm="nereus-admin"';
const ANONYMOUS: AdminPrincipal = Object.freeze({ name: "anonymous", via: "anonymous" });

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** The bearer token of an Authorization header, or undefined when there is none (or another scheme). */
function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(header);
  return match?.[1];
}

/** The authenticator of `auth`. */
export function createAdminAuthenticator(auth: AdminAuthConfig): AdminAuthenticator {
  const required = adminAuthRequired(auth);
  const tokens = [
    ...auth.tokens.map((token) => ({ name: token.name, digest: digest(token.secret) })),
    ...(auth.tokenSecret === undefined ? [] : [{ name: "admin", digest: digest(auth.tokenSecret) }]),
  ];
  const publicPaths = new Set(auth.publicPaths);
  const matchToken = (presented: string): string | undefined => {
    const presentedDigest = digest(presented);
    let matched: string | undefined;
    for (const token of tokens) if (timingSafeEqual(token.digest, presentedDigest)) matched ??= token.name;
    return matched;
  };
  return {
    isPublic: (path) => publicPaths.has(path),
    authenticate(request) {
      if (!required) return { ok: true, principal: ANONYMOUS };
      const presented = bearerToken(request.headers.authorization);
      if (presented !== undefined) {
        const name = matchToken(presented);
        return name === undefined
          ? { ok: false, challenge: `${REALM}, error="invalid_token"`, reason: "the bearer token is not valid" }
          : { ok: true, principal: { name, via: "token" } };
      }
      if (auth.clientCertificates && request.socket instanceof TLSSocket) {
        const subject = verifiedPeerSubject(request.socket);
        if (subject !== undefined) return { ok: true, principal: { name: subject, via: "certificate" } };
      }
      return { ok: false, challenge: REALM, reason: "authentication required (Authorization: Bearer <token>)" };
    },
  };
}

const PRINCIPALS = new WeakMap<http.IncomingMessage, AdminPrincipal>();

/** Records the principal the gate admitted `request` as (the admin server does it before routing). */
export function rememberAdminPrincipal(request: http.IncomingMessage, principal: AdminPrincipal): void {
  PRINCIPALS.set(request, principal);
}

/**
 * The principal the admin gate admitted `request` as (for routes that check roles, e.g. the Pulsar admin API);
 * the anonymous principal for a public path or when no credential is configured.
 */
export function adminPrincipalOf(request: http.IncomingMessage): AdminPrincipal {
  return PRINCIPALS.get(request) ?? ANONYMOUS;
}
