// The broker identity a connection's requests see: the broker's node id and cluster id with the address of the
// listener the connection came in on, so that Metadata and FindCoordinator advertise, as Kafka does, the address
// on the client's own listener (a TLS client is sent to the TLS port, a loopback client to the loopback one).
import type { ConnectionTransport } from "../security/connection-transport.js";
import type { BrokerIdentity } from "./kafka-api-handler.js";

/** A host and port a listener advertises. */
export interface ListenerAddress {
  readonly host: string;
  readonly port: number;
}

/** `identity` with the advertised address of the transport's listener, when `listeners` names it. */
export function listenerIdentity(
  identity: BrokerIdentity,
  transport: ConnectionTransport | undefined,
  listeners: ReadonlyMap<string, ListenerAddress> | undefined,
): BrokerIdentity {
  const address = transport === undefined ? undefined : listeners?.get(transport.listenerName);
  return address === undefined ? identity : { ...identity, host: address.host, port: address.port };
}
