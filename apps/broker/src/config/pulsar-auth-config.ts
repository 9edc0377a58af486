// `pulsar.auth`: authentication and authorization of Pulsar clients (the binary protocol and the /admin/v2 API),
// with Apache Pulsar's setting names. Authentication checks token credentials (JWT): signed with a secret key (raw
// bytes in `tokenSecretKeyFile`, or base64 in `tokenSecretKey`) or
// with the private half of `tokenPublicKeyFile` (PEM or DER, algorithm `tokenPublicAlg`). Authorization needs
// authentication: super users may do anything, tenant admins anything in their tenant, other roles what the
// namespace and topic permissions grant them. Key material is never logged (the base64 key is a secret field; a
// file's contents are read at start-up only).
import { TOKEN_PUBLIC_ALGORITHMS } from "@nereus/pulsar";
import { z } from "zod";

const text = z.string().min(1);

/** `pulsar.auth`. */
export const PulsarAuthConfigSchema = z
  .strictObject({
    /** Clients must present a token (or get `anonymousUserRole`). */
    authenticationEnabled: z.boolean().default(false),
    /** File holding the token secret key, raw bytes (at least 32), as `pulsar tokens create-secret-key` writes it. */
    tokenSecretKeyFile: text.optional(),
    /** The token secret key, base64. */
    tokenSecretKey: text.optional(),
    /** File holding the token public key, PEM or DER (SPKI). */
    tokenPublicKeyFile: text.optional(),
    /** Signature algorithm of tokens checked with the public key. */
    tokenPublicAlg: z
      .enum(TOKEN_PUBLIC_ALGORITHMS, { error: `must be one of ${TOKEN_PUBLIC_ALGORITHMS.join(", ")}` })
      .default("RS256"),
    /** The claim naming the role. */
    tokenAuthClaim: text.default("sub"),
    /** When set, tokens must name this audience in `tokenAudienceClaim`. */
    tokenAudience: text.optional(),
    tokenAudienceClaim: text.default("aud"),
    /** Tolerated clock difference when checking `exp` and `nbf`. */
    tokenAllowedClockSkewSeconds: z.int().min(0).max(3_600).default(0),
    /** The role of clients without credentials (default: they are refused). */
    anonymousUserRole: text.optional(),
    /** How often connections check whether their token expired (and challenge the client to refresh it). */
    authenticationRefreshCheckSeconds: z.int().min(1).max(86_400).default(60),
    /** Roles need permissions (requires authenticationEnabled). */
    authorizationEnabled: z.boolean().default(false),
    /** Roles that may do anything. */
    superUserRoles: z.array(text).default([]),
  })
  .superRefine((auth, context) => {
    const keys = [auth.tokenSecretKeyFile, auth.tokenSecretKey, auth.tokenPublicKeyFile].filter(
      (key) => key !== undefined,
    );
    if (auth.authenticationEnabled && keys.length !== 1) {
      context.addIssue({
        code: "custom",
        message: "authentication needs exactly one of tokenSecretKeyFile, tokenSecretKey and tokenPublicKeyFile",
        path: ["authenticationEnabled"],
      });
    }
    if (auth.tokenSecretKey !== undefined && !/^[A-Za-z0-9+/_-]+={0,2}$/.test(auth.tokenSecretKey)) {
      context.addIssue({ code: "custom", message: "must be base64", path: ["tokenSecretKey"] });
    }
    if (auth.authorizationEnabled && !auth.authenticationEnabled) {
      context.addIssue({
        code: "custom",
        message: "authorization needs authenticationEnabled",
        path: ["authorizationEnabled"],
      });
    }
  });

/** The validated Pulsar auth settings. */
export type PulsarAuthConfig = z.output<typeof PulsarAuthConfigSchema>;
