// Metadata key layout of the Pulsar adapter's records, under the cluster prefix P = /nereus/clusters/{cluster}:
//
//   P/pulsar/topics/{tenant}/{namespace}/{localName}               one PulsarTopic record (incarnation) per topic
//                                                                  or partition, tombstone included
//   P/pulsar/partitioned-topics/{tenant}/{namespace}/{localName}   one PulsarPartitionedTopic record per
//                                                                  partitioned topic (its partition count)
//   P/pulsar/ledger-ids                                            the virtual ledger id counter
//   P/pulsar/dedup/{streamId}                                      the producer-sequence checkpoint of one stream
//   P/pulsar/policies/namespaces/{tenant}/{namespace}              one PulsarNamespacePolicies record
//   P/pulsar/policies/topics/{tenant}/{namespace}/{localName}      one PulsarTopicPolicies record (a partitioned
//                                                                  topic's, for all its partitions)
//   P/pulsar/schemas/{tenant}/{namespace}/{localName}/{version}    one PulsarSchema record per schema version of a
//                                                                  topic (a partitioned topic's, for all its
//                                                                  partitions); version in 19 decimal digits
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
  POLICIES: "policies",
  NAMESPACES: "namespaces",
  SCHEMAS: "schemas",
} as const;

/** Folders (below P/pulsar) whose keys end in {tenant}/{namespace}/{localName}. */
type TopicFolder = "topics" | "partitioned-topics" | "policies/topics" | "schemas";

/** Digits of a schema version in a key (every version in [0, 2^63 - 1] fits, zero-padded so keys sort by version). */
const SCHEMA_VERSION_DIGITS = 19;
const SCHEMA_VERSION = /^[0-9]{19}$/;
const MAX_SCHEMA_VERSION = 2n ** 63n - 1n;

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

  /** `P/pulsar/policies/namespaces/{tenant}/{namespace}`. */
  namespacePoliciesKey(tenant: string, namespace: string): string {
    const folder = `${this.root}/${PulsarKeySegment.POLICIES}/${PulsarKeySegment.NAMESPACES}`;
    return `${folder}/${encodeKeyComponent(tenant)}/${encodeKeyComponent(namespace)}`;
  }

  /** The `tenant/namespace` a namespace-policies key names; DECODE_ERROR for any other key. */
  parseNamespacePoliciesKey(key: string): string {
    const prefix = `${this.root}/${PulsarKeySegment.POLICIES}/${PulsarKeySegment.NAMESPACES}/`;
    const parts = key.startsWith(prefix) ? key.slice(prefix.length).split("/") : [];
    if (parts.length !== 2) throw malformed(key, "Pulsar namespace-policies");
    try {
      const [tenant, namespace] = parts.map(decodeKeyComponent) as [string, string];
      const name = `${tenant}/${namespace}`;
      if (this.namespacePoliciesKey(tenant, namespace) !== key) throw malformed(key, "Pulsar namespace-policies");
      return name;
    } catch (cause) {
      throw malformed(key, "Pulsar namespace-policies", cause);
    }
  }

  /** `P/pulsar/policies/topics/{tenant}/{namespace}/{localName}`. */
  topicPoliciesKey(topic: TopicName): string {
    return (
      this.#namespacePrefix("policies/topics", topic.tenant, topic.namespace) + encodeKeyComponent(topic.localName)
    );
  }

  /** The full topic name a topic-policies key names; DECODE_ERROR for any other key. */
  parseTopicPoliciesKey(key: string): string {
    return this.#parseTopicFolderKey(key, "policies/topics", "Pulsar topic-policies");
  }

  /** `P/pulsar/schemas/{tenant}/{namespace}/{localName}/`: scan prefix of a topic's schema versions. */
  schemaVersionsPrefix(topic: TopicName): string {
    return `${this.#namespacePrefix(PulsarKeySegment.SCHEMAS, topic.tenant, topic.namespace)}${encodeKeyComponent(topic.localName)}/`;
  }

  /** `P/pulsar/schemas/{tenant}/{namespace}/{localName}/{version}` (version in [0, 2^63 - 1]). */
  schemaKey(topic: TopicName, version: bigint): string {
    if (version < 0n || version > MAX_SCHEMA_VERSION) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, `schema version ${String(version)} is outside [0, 2^63 - 1]`);
    }
    return this.schemaVersionsPrefix(topic) + version.toString().padStart(SCHEMA_VERSION_DIGITS, "0");
  }

  /** The full topic name and version a schema key names; DECODE_ERROR for any other key. */
  parseSchemaKey(key: string): { readonly topic: string; readonly version: bigint } {
    const at = key.lastIndexOf("/");
    const digits = key.slice(at + 1);
    if (at < 0 || !SCHEMA_VERSION.test(digits) || BigInt(digits) > MAX_SCHEMA_VERSION) {
      throw malformed(key, "Pulsar schema");
    }
    const topic = this.#parseTopicFolderKey(key.slice(0, at), PulsarKeySegment.SCHEMAS, "Pulsar schema");
    return { topic, version: BigInt(digits) };
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
