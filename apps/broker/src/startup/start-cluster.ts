// Start-up step for cluster membership (when `membership.enabled`, on the etcd metadata store only): the broker
// registry and the ownership of partitions and groups. The ownership exists before the Kafka services (they ask it
// who leads what); the broker registers once its listeners are bound, since its record carries their addresses.
// Leaving drains the ownership (no more claims, every held resource handed over), then revokes the lease, so the
// other brokers take over at once.
import type { BrokerConfig } from "../config/broker-config.js";
import { StartupError } from "../errors/startup-error.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import type { BrokerStorage } from "../storage/open-storage.js";
import { BrokerMembership } from "../cluster/broker-membership.js";
import type { BrokerRecord } from "../cluster/broker-record.js";
import { ClusterKeys } from "../cluster/cluster-keys.js";
import { ClusterOwnership } from "../cluster/cluster-ownership.js";
import type { StartupUndo } from "./startup-undo.js";

/** The broker's membership in a cluster of brokers. */
export interface ClusterServices {
  readonly membership: BrokerMembership;
  readonly ownership: ClusterOwnership;
  /** Registers this broker (its lease, its record) and starts following the live set. */
  join(self: BrokerRecord): Promise<void>;
  /** Drains (hands every held resource over), then leaves the cluster (idempotent). */
  leave(): Promise<void>;
}

/**
 * The cluster services of `config`, or undefined when membership is off. Throws a StartupError when membership is on
 * without the etcd metadata store (other brokers could not see this one).
 */
export function createClusterServices(
  config: BrokerConfig,
  storage: BrokerStorage,
  logger: BrokerLogger,
  undo: StartupUndo,
): ClusterServices | undefined {
  if (!config.membership.enabled) return undefined;
  if (config.storage.metadata.kind !== "etcd") {
    throw new StartupError(
      "membership.enabled needs the etcd metadata store (storage.metadata.kind = etcd): brokers find each other there",
    );
  }
  const keys = new ClusterKeys(config.cluster);
  const membership = new BrokerMembership({
    metadata: storage.metadata,
    keys,
    leaseTtlMs: config.membership.leaseTtlMs,
    logger,
  });
  const ownership = new ClusterOwnership({
    membership,
    metadata: storage.metadata,
    store: storage.store,
    keys,
    logger,
  });
  let left: Promise<void> | undefined;
  const services: ClusterServices = {
    membership,
    ownership,
    join: (self) => membership.start(self),
    leave() {
      left ??= (async () => {
        await ownership.drain();
        await membership.close();
      })();
      return left;
    },
  };
  undo.push(() => services.leave());
  return services;
}
