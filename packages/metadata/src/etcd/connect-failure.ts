// The message of a failed connect to etcd, naming what failed — no answer, the TLS handshake (unknown CA, missing
// or refused client certificate), the user name or password, or a permission — without ever including the
// password. Used once, by the store's connect.
import { MetadataStoreErrors } from "@nereus/core/internal";
import type { NereusError } from "@nereus/core";

/** An error class of the etcd3 module the store loaded. */
type ErrorClass = abstract new (...args: never[]) => Error;

/** What the connect attempt was. */
export interface ConnectAttempt {
  readonly endpoints: readonly string[];
  readonly dialTimeoutMs: number;
  readonly username: string | undefined;
  readonly tls: boolean;
}

const TLS_FAILURE =
  /certificate|self[- ]signed|unable to (get|verify)|handshake|SSL|TLS|alert|wrong version number|ERR_OSSL/i;

/** The message of the innermost cause of `error`, on one line. */
function rootMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 8 && current instanceof Error && current.cause !== undefined; depth++)
    current = current.cause;
  const message = current instanceof Error ? current.message : String(current);
  return message
    .replace(/\s+/g, " ")
    .replace(/ Resolution note: ?$/, "")
    .trim();
}

/** What an operator should check after a TLS failure. */
function tlsHint(detail: string): string {
  if (/unable to (get|verify)|self[- ]signed|unknown ca|certificate verify failed/i.test(detail))
    return " (etcd's server certificate does not chain to the configured CA file)";
  if (/bad certificate|certificate required|alert number 4[26]/i.test(detail))
    return " (etcd refused the client certificate: it requires one signed by a CA it trusts)";
  return "";
}

/** Non-ambiguous `METADATA_UNAVAILABLE` saying why etcd could not be used. */
export function connectFailure(
  error: unknown,
  attempt: ConnectAttempt,
  etcd: { readonly EtcdAuthenticationFailedError: ErrorClass; readonly EtcdPermissionDeniedError: ErrorClass },
): NereusError {
  const where = `etcd at ${attempt.endpoints.join(",")}`;
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const detail = rootMessage(error);
  if (cause instanceof etcd.EtcdAuthenticationFailedError || /authentication failed/i.test(detail)) {
    return MetadataStoreErrors.unavailable(
      `${where} refused the credentials of user "${attempt.username ?? ""}" (wrong user name or password)`,
      error,
      false,
    );
  }
  if (cause instanceof etcd.EtcdPermissionDeniedError || /permission denied|user name is empty/i.test(detail)) {
    const who =
      attempt.username === undefined ? "without a user (no username configured)" : `as user "${attempt.username}"`;
    return MetadataStoreErrors.unavailable(`${where} denied access ${who}: ${detail}`, error, false);
  }
  if (attempt.tls && TLS_FAILURE.test(detail)) {
    return MetadataStoreErrors.unavailable(`TLS with ${where} failed${tlsHint(detail)}: ${detail}`, error, false);
  }
  return MetadataStoreErrors.unavailable(
    `${where} did not answer within ${attempt.dialTimeoutMs} ms: ${detail}`,
    error,
  );
}
