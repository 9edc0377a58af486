// How the etcd metadata store secures its connection: TLS (the CA that signed etcd's server certificate, and a
// client certificate and key for mutual TLS) and user/password authentication (etcd's Authenticate RPC trades them
// for a token the client sends with every call; when etcd reports the token invalid or expired, the client
// authenticates again and resends the call, which etcd had refused before doing anything). Checked before any I/O.
import { MetadataStoreErrors } from "@nereus/core/internal";
import type { IOptions } from "etcd3";

/** PEM text (or its bytes). */
export type Pem = string | Uint8Array;

/** TLS to etcd; the endpoints must be `https://` URLs. */
export interface EtcdTlsOptions {
  /** PEM of the CA certificate(s) etcd's server certificate must chain to. */
  readonly ca: Pem;
  /** PEM client certificate (chain) for mutual TLS; goes with `key`. */
  readonly cert?: Pem;
  /** PEM private key of `cert`. */
  readonly key?: Pem;
}

/** etcd user/password authentication. The password is a secret: no message of the store ever contains it. */
export interface EtcdAuthOptions {
  readonly username: string;
  readonly password: string;
}

/** The security part of the etcd client options. */
export type EtcdClientSecurity = Pick<IOptions, "credentials" | "auth">;

function pemBuffer(pem: Pem, what: string): Buffer {
  const buffer = typeof pem === "string" ? Buffer.from(pem, "utf8") : Buffer.from(pem);
  if (!buffer.includes("-----BEGIN ")) throw MetadataStoreErrors.invalid(`etcd TLS ${what} is not PEM`);
  return buffer;
}

/**
 * The etcd3 options for `tls` and `auth` over `endpoints`. Throws `METADATA_INVALID_REQUEST` when TLS is given
 * with an `http://` endpoint, a client certificate without its key (or the reverse), text that is not PEM, or an
 * empty user name.
 */
export function etcdClientSecurity(
  endpoints: readonly string[],
  tls: EtcdTlsOptions | undefined,
  auth: EtcdAuthOptions | undefined,
  authDeadlineMs: number,
): EtcdClientSecurity {
  const security: { -readonly [K in keyof EtcdClientSecurity]: EtcdClientSecurity[K] } = {};
  if (tls !== undefined) {
    const plain = endpoints.filter((endpoint) => !endpoint.startsWith("https://"));
    if (plain.length > 0)
      throw MetadataStoreErrors.invalid(`etcd TLS needs https:// endpoints, not ${plain.join(", ")}`);
    if ((tls.cert === undefined) !== (tls.key === undefined))
      throw MetadataStoreErrors.invalid("etcd TLS client certificate and key go together (give both or neither)");
    security.credentials = {
      rootCertificate: pemBuffer(tls.ca, "CA certificate"),
      ...(tls.key === undefined ? {} : { privateKey: pemBuffer(tls.key, "client key") }),
      ...(tls.cert === undefined ? {} : { certChain: pemBuffer(tls.cert, "client certificate") }),
    };
  }
  if (auth !== undefined) {
    if (auth.username === "") throw MetadataStoreErrors.invalid("etcd user name must not be empty");
    security.auth = {
      username: auth.username,
      password: auth.password,
      // The token exchange gets the same deadline as any call, so a silent etcd cannot hold a call forever.
      callOptions: () => ({ deadline: Date.now() + authDeadlineMs }),
    };
  }
  return security;
}
