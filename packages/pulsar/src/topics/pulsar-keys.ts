// Metadata key layout of the Pulsar adapter's records, under the cluster prefix P = /nereus/clusters/{cluster}:
//
//   P/pulsar/topics/{tenant}/{namespace}/{localName}               one PulsarTopic record (incarnation) per topic
//                                                                  or partition, tombstone included
//   P/pulsar/partitioned-topics/{tenant}/{namespace}/{localName}   one PulsarPartitionedTopic record per
//                                                                  partitioned topic (its partition count)
//   P/pulsar/ledger-ids                                            the virtual ledger id counter
//   P/pulsar/dedup/{streamId}                                      the producer-sequence checkpoint of one stream
//
// Every dynamic component goes through core's key-component codec, so a namespace's topics are one prefix scan.
// Builders take parsed names; parsers accept exactly what the builders produce and throw DECODE_ERROR otherwise.
import { ErrorCode, NereusError } from "@nereus/core";
import { clusterPrefix, decodeKeyComponent, encodeKeyComponent } from "@nereus/core/internal";
import { PERSISTENT_DOMAIN, type TopicName, parseTopicName } from "./topic-name.js";

/** Fixed path segments (durable; never rename). */
const PulsarKeySegment = {
  ROOT: "pulsar",
  TOPICS: "topics",
  PARTITIONED_TOPICS: "partitioned-topics",
  LEDGER_IDS: "ledger-ids",
  DEDUP: "dedup",
} as const;

type TopicFolder = typeof PulsarKeySegment.TOPICS | typeof PulsarKeySegment.PARTITIONED_TOPICS;

function malformed(key: string, kind: string, cause?: unknown): NereusError {
  return new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not a ${kind} key`, {
    retryable: false,
    cause,
  });
}

/** Key builders and parsers of one cluster. */
export class PulsarKeyspace {
  /** `P/pulsar`. */
  readonly root: string;

  constructor(cluster: string) {
    this.root = `${clusterPrefix(cluster)}/${PulsarKeySegment.ROOT}`;
  }

  /** `P/pulsar/topics/{tenant}/{namespace}/`: scan prefix of a namespace's topic records. */
  namespaceTopicsPrefix(tenant: string, namespace: string): string {
    return this.#namespacePrefix(PulsarKeySegment.TOPICS, tenant, namespace);
  }

  /** `P/pulsar/topics/{tenant}/{namespace}/{localName}`. */
  topicKey(topic: TopicName): string {
    return this.namespaceTopicsPrefix(topic.tenant, topic.namespace) + encodeKeyComponent(topic.localName);
  }

  /** The full topic name a topic key names; DECODE_ERROR for any other key. */
  parseTopicKey(key: string): string {
    return this.#parseTopicFolderKey(key, PulsarKeySegment.TOPICS, "Pulsar topic");
  }

  /** `P/pulsar/partitioned-topics/{tenant}/{namespace}/`: scan prefix of a namespace's partitioned topics. */
  namespacePartitionedTopicsPrefix(tenant: string, namespace: string): string {
    return this.#namespacePrefix(PulsarKeySegment.PARTITIONED_TOPICS, tenant, namespace);
  }

  /** `P/pulsar/partitioned-topics/{tenant}/{namespace}/{localName}`. */
  partitionedTopicKey(topic: TopicName): string {
    return this.namespacePartitionedTopicsPrefix(topic.tenant, topic.namespace) + encodeKeyComponent(topic.localName);
  }

  /** The full topic name a partitioned-topic key names; DECODE_ERROR for any other key. */
  parsePartitionedTopicKey(key: string): string {
    return this.#parseTopicFolderKey(key, PulsarKeySegment.PARTITIONED_TOPICS, "Pulsar partitioned-topic");
  }

  /** `P/pulsar/ledger-ids`. */
  ledgerIdsKey(): string {
    return `${this.root}/${PulsarKeySegment.LEDGER_IDS}`;
  }

  /** `P/pulsar/dedup/{streamId}`. */
  dedupKey(streamId: string): string {
    return `${this.root}/${PulsarKeySegment.DEDUP}/${encodeKeyComponent(streamId)}`;
  }

  /** The stream id a dedup key names; DECODE_ERROR for any other key. */
  parseDedupKey(key: string): string {
    const prefix = `${this.root}/${PulsarKeySegment.DEDUP}/`;
    const component = key.startsWith(prefix) ? key.slice(prefix.length) : "";
    if (component.length === 0 || component.includes("/")) throw malformed(key, "Pulsar dedup");
    try {
      return decodeKeyComponent(component);
    } catch (cause) {
      throw malformed(key, "Pulsar dedup", cause);
    }
  }

  #namespacePrefix(folder: TopicFolder, tenant: string, namespace: string): string {
    return `${this.root}/${folder}/${encodeKeyComponent(tenant)}/${encodeKeyComponent(namespace)}/`;
  }

  #parseTopicFolderKey(key: string, folder: TopicFolder, kind: string): string {
    const prefix = `${this.root}/${folder}/`;
    const parts = key.startsWith(prefix) ? key.slice(prefix.length).split("/") : [];
    if (parts.length !== 3) throw malformed(key, kind);
    let fullName: string;
    try {
      const [tenant, namespace, localName] = parts.map(decodeKeyComponent) as [string, string, string];
      fullName = `${PERSISTENT_DOMAIN}://${tenant}/${namespace}/${localName}`;
      if (parseTopicName(fullName).fullName !== fullName) throw malformed(key, kind);
    } catch (cause) {
      throw malformed(key, kind, cause);
    }
    return fullName;
  }
}
