// Who sent a request: the principal a connection authenticated as (SASL user, TLS client certificate subject) or
// ANONYMOUS when the listener asks for no authentication. Authorization decisions and ACLs name principals in Kafka's
// "Type:name" form, e.g. "User:alice".

/** An authenticated identity. Invariant: `name` is non-empty. */
export interface KafkaPrincipal {
  readonly type: "User";
  readonly name: string;
}

/** The principal of a connection that did not authenticate (a PLAINTEXT or SSL listener without client certificates). */
export const ANONYMOUS_PRINCIPAL: KafkaPrincipal = Object.freeze({ type: "User", name: "ANONYMOUS" });

/** `principal` in Kafka's "Type:name" form. */
export function formatPrincipal(principal: KafkaPrincipal): string {
  return `${principal.type}:${principal.name}`;
}
