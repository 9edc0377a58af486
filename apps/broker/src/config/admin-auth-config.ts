// Who may use the admin HTTP API. Credentials: bearer tokens (`tokens`, each naming the principal it authenticates,
// and `tokenSecret`, one token for the principal "admin", typically from NEREUS_ADMIN_TOKEN_SECRET) and, with
// `clientCertificates` on an admin TLS listener that verifies client certificates, the certificate's subject. With no
// credential configured the admin API is open, as it is by default on 127.0.0.1. `publicPaths` stay open either
// way: by default the health and metrics endpoints, which reveal no data and are what probes and scrapers call.
import { z } from "zod";

const secret = z.string().min(16, "must be at least 16 characters (a random token, e.g. openssl rand -hex 32)");

/** One bearer token and the principal it authenticates. */
const AdminTokenSchema = z.strictObject({
  /** The principal requests with this token act as (in logs and for role checks). */
  name: z.string().regex(/^[A-Za-z0-9_.@-]+$/, "must match [A-Za-z0-9_.@-]+"),
  secret,
});

/** `admin.auth`. */
export const AdminAuthConfigSchema = z
  .strictObject({
    tokens: z.array(AdminTokenSchema).default([]),
    /** One more token, for the principal "admin" (set it from the environment: NEREUS_ADMIN_TOKEN_SECRET). */
    tokenSecret: secret.optional(),
    /** A client certificate verified by admin.tls authenticates as its subject ("CN=...,O=..."). */
    clientCertificates: z.boolean().default(false),
    /** Paths served without credentials (exact paths). */
    publicPaths: z
      .array(z.string().startsWith("/", "must be a path starting with /"))
      .default(["/healthz", "/metrics"]),
  })
  .superRefine((auth, context) => {
    const names = new Set<string>();
    auth.tokens.forEach((token, index) => {
      if (names.has(token.name))
        context.addIssue({
          code: "custom",
          message: `token name ${token.name} is used twice`,
          path: ["tokens", index],
        });
      names.add(token.name);
    });
  });

/** The validated admin authentication settings. */
export type AdminAuthConfig = z.output<typeof AdminAuthConfigSchema>;

/** True when some credential is configured (the admin API then refuses requests without one). */
export function adminAuthRequired(auth: AdminAuthConfig): boolean {
  return auth.tokens.length > 0 || auth.tokenSecret !== undefined || auth.clientCertificates;
}
