// Metadata keys of cluster membership, under P = /nereus/clusters/{cluster}:
//   P/brokers/{nodeId}                       one live broker (bound to its lease): its advertised addresses
//   P/owners/partition/{topicId}/{partition} the broker that holds a Kafka partition (bound to that broker's lease)
//   P/owners/group/{groupId}                 the broker that coordinates a consumer group (likewise)
// Every key of a broker is put with its lease, so a broker that stops renewing loses all of them at once.
import { clusterPrefix, encodeKeyComponent } from "@nereus/core/internal";

/** The membership keys of one cluster. */
export class ClusterKeys {
  readonly #prefix: string;

  constructor(cluster: string) {
    this.#prefix = clusterPrefix(cluster);
  }

  /** `P/brokers/` (the prefix scanned and watched for the live set). */
  brokersPrefix(): string {
    return `${this.#prefix}/brokers/`;
  }

  /** `P/brokers/{nodeId}`. */
  brokerKey(nodeId: number): string {
    return `${this.brokersPrefix()}${String(nodeId)}`;
  }

  /** `P/owners/partition/{topicId}/{partition}`. */
  partitionClaimKey(topicId: string, partition: number): string {
    return `${this.#prefix}/owners/partition/${encodeKeyComponent(topicId)}/${String(partition)}`;
  }

  /** `P/owners/group/{groupId}`. */
  groupClaimKey(groupId: string): string {
    return `${this.#prefix}/owners/group/${encodeKeyComponent(groupId)}`;
  }
}
