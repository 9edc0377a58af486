// The TLS settings of one listener (Kafka, Pulsar or admin HTTP): PEM files of the server certificate (chain), its
// private key and, to verify client certificates, a CA bundle. `clientAuth` follows Kafka's ssl.client.auth: "none"
// asks for no client certificate, "requested" asks for one and verifies it when given, "required" refuses a client
// without a valid one. The files are read and checked at start-up (listener/tls-material.ts).
import { z } from "zod";

/** Kafka's ssl.client.auth values. */
const CLIENT_AUTH_MODES = ["none", "requested", "required"] as const;
export type ClientAuthMode = (typeof CLIENT_AUTH_MODES)[number];

const pemFile = (what: string) => z.string().min(1, `must name the PEM file of ${what}`);

/** The fields of {@link TlsConfigSchema}, for listener schemas that add their own. */
export const TLS_FIELDS = {
  /** The server certificate, optionally followed by its intermediate certificates (PEM). */
  certFile: pemFile("the server certificate"),
  /** The server certificate's private key (PEM, unencrypted). */
  keyFile: pemFile("the private key"),
  /** CA certificates (PEM bundle) that client certificates must chain to. */
  caFile: pemFile("the CA bundle").optional(),
  clientAuth: z
    .enum(CLIENT_AUTH_MODES, { error: `must be ${CLIENT_AUTH_MODES.map((mode) => `"${mode}"`).join(", ")}` })
    .default("none"),
};

/** Checks that a client certificate is asked for only when `caFile` can verify it. */
export function caFileForClientAuth(tls: {
  readonly clientAuth: ClientAuthMode;
  readonly caFile?: string | undefined;
}): boolean {
  return tls.clientAuth === "none" || tls.caFile !== undefined;
}

/** The message of a failed {@link caFileForClientAuth}, on the `caFile` field. */
export const CA_FILE_REQUIRED = {
  message: "clientAuth requested or required needs caFile (the CAs that client certificates must chain to)",
  path: ["caFile"],
};

/** TLS settings of a listener. Invariant: a client certificate is asked for only when `caFile` can verify it. */
export const TlsConfigSchema = z.strictObject(TLS_FIELDS).refine(caFileForClientAuth, CA_FILE_REQUIRED);

/** The validated TLS settings of one listener. */
export type TlsConfig = z.output<typeof TlsConfigSchema>;
