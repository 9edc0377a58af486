// The server side of one SASL exchange: client tokens in, one outcome per token. Expected outcomes are values: a
// challenge to send, the completed exchange with the authenticated user, or a failure carrying the message the
// client may see (never whether the user exists) and the reason the broker logs (never a password).

/** One step of an exchange. */
export type SaslStep =
  | { readonly kind: "challenge"; readonly token: Uint8Array }
  | { readonly kind: "complete"; readonly token: Uint8Array; readonly userName: string }
  | {
      readonly kind: "failed";
      /** The message for the client's SaslAuthenticate error. */
      readonly clientMessage: string;
      /** Why, for the broker log. */
      readonly reason: string;
      /** The user the client named, when it named one. */
      readonly userName?: string;
    };

/**
 * One exchange of one mechanism. Invariants: `evaluate` is called with one token at a time (never concurrently);
 * after a "complete" or "failed" step the exchange is over and any further token fails.
 */
export interface SaslExchange {
  readonly mechanism: string;
  evaluate(token: Uint8Array, signal?: AbortSignal): Promise<SaslStep>;
}

/** A failed step. */
export function failedStep(clientMessage: string, reason: string, userName?: string): SaslStep {
  return userName === undefined
    ? { kind: "failed", clientMessage, reason }
    : { kind: "failed", clientMessage, reason, userName };
}
