// What a broker's SASL listeners accept: the enabled mechanisms, the PLAIN users, and the session lifetime after
// which an authenticated connection must re-authenticate (Kafka's connections.max.reauth.ms). SCRAM users are not
// configured here: they live in the cluster's metadata (scram-credential-store.ts).
import { ErrorCode, NereusError } from "@nereus/core";

/** The SASL mechanisms this broker implements. */
export const SASL_MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] as const;
/** One of {@link SASL_MECHANISMS}. */
export type SaslMechanismName = (typeof SASL_MECHANISMS)[number];

/** SASL settings of a broker. */
export interface KafkaSaslOptions {
  /** Mechanisms offered on SASL listeners, in the order SaslHandshake lists them (non-empty, no repeats). */
  readonly mechanisms: readonly SaslMechanismName[];
  /** PLAIN users: name → password (only read when PLAIN is enabled). */
  readonly plainUsers?: ReadonlyMap<string, string>;
  /**
   * Longest an authentication holds, in ms (0 = for the connection's life). SaslAuthenticate v1+ tells the client;
   * a connection that has not re-authenticated by then is closed at its next request.
   */
  readonly reauthenticationMs?: number;
}

/** Validated settings. */
export interface SaslSettings {
  readonly mechanisms: readonly SaslMechanismName[];
  readonly plainUsers: ReadonlyMap<string, string>;
  readonly reauthenticationMs: number;
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `sasl: ${message}`, { retryable: false });
}

/** Checks `options`; throws INVALID_ARGUMENT naming the bad setting. */
export function checkSaslOptions(options: KafkaSaslOptions): SaslSettings {
  if (options.mechanisms.length === 0) throw invalid("mechanisms must not be empty");
  for (const mechanism of options.mechanisms) {
    if (!(SASL_MECHANISMS as readonly string[]).includes(mechanism)) throw invalid(`unknown mechanism ${mechanism}`);
  }
  if (new Set(options.mechanisms).size !== options.mechanisms.length) throw invalid("mechanisms repeat");
  const reauthenticationMs = options.reauthenticationMs ?? 0;
  if (!Number.isSafeInteger(reauthenticationMs) || reauthenticationMs < 0) {
    throw invalid(`reauthenticationMs must be a non-negative integer, got ${String(reauthenticationMs)}`);
  }
  const plainUsers = options.plainUsers ?? new Map<string, string>();
  for (const [name, password] of plainUsers) {
    if (name.length === 0 || name.includes("\0")) throw invalid("a PLAIN user name must be non-empty, without NUL");
    if (password.length === 0 || password.includes("\0")) {
      throw invalid(`the PLAIN password of ${name} must be non-empty, without NUL`);
    }
  }
  return { mechanisms: [...options.mechanisms], plainUsers, reauthenticationMs };
}
