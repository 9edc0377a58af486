// The Kafka listeners of one broker taken together: shutdown steps apply to all of them, the connection count is
// their sum, and the first one (the primary listener) gives the group its address. Each listener keeps the address
// it advertises to the clients that come in on it.
import { ErrorCode, NereusError } from "@nereus/core";
import type { KafkaListener } from "./kafka-listener.js";

/** A host and port clients are told to connect to. */
export interface AdvertisedAddress {
  readonly host: string;
  readonly port: number;
}

/** A bound listener and the address it advertises. */
export interface BoundKafkaListener {
  readonly listener: KafkaListener;
  readonly advertised: AdvertisedAddress;
}

/** Every Kafka listener of a broker; behaves as one listener whose address is the primary's. */
export interface KafkaListenerGroup extends KafkaListener {
  /** In configuration order; the first is the primary listener. Invariant: non-empty, names unique. */
  readonly members: readonly BoundKafkaListener[];
  /** Advertised address by listener name. */
  readonly advertised: ReadonlyMap<string, AdvertisedAddress>;
}

/** Groups bound listeners (non-empty). */
export function groupKafkaListeners(members: readonly BoundKafkaListener[]): KafkaListenerGroup {
  const primary = members[0];
  if (primary === undefined)
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "a broker needs at least one Kafka listener", {
      retryable: false,
    });
  const listeners = members.map((member) => member.listener);
  return {
    members,
    advertised: new Map(members.map((member) => [member.listener.name, member.advertised])),
    name: primary.listener.name,
    securityProtocol: primary.listener.securityProtocol,
    host: primary.listener.host,
    port: primary.listener.port,
    get connectionCount() {
      return listeners.reduce((sum, listener) => sum + listener.connectionCount, 0);
    },
    stopAccepting() {
      for (const listener of listeners) listener.stopAccepting();
    },
    async drain(timeoutMs) {
      await Promise.all(listeners.map((listener) => listener.drain(timeoutMs)));
    },
    async close() {
      await Promise.all(listeners.map((listener) => listener.close()));
    },
  };
}
