// Metadata keys of the permissions granted through the admin API, next to the policy records under P/pulsar
// (P = /nereus/clusters/{cluster}):
//
//   P/pulsar/permissions/namespaces/{tenant}/{namespace}         one PulsarNamespacePermissions record
//   P/pulsar/permissions/topics/{tenant}/{namespace}/{localName} one PulsarTopicPermissions record (a partitioned
//                                                                topic's, for all its partitions)
//
// Components go through core's key-component codec; parsers accept exactly what the builders produce and throw
// DECODE_ERROR otherwise.
import { ErrorCode, NereusError } from "@nereus/core";
import { decodeKeyComponent, encodeKeyComponent } from "@nereus/core/internal";
import { PERSISTENT_DOMAIN, type NamespaceName, type TopicName, parseTopicName } from "../topics/topic-name.js";

/** Fixed path segments (durable; never rename). */
const PermissionKeySegment = { PERMISSIONS: "permissions", NAMESPACES: "namespaces", TOPICS: "topics" } as const;

function malformed(key: string, kind: string, cause?: unknown): NereusError {
  return new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not a ${kind} key`, {
    retryable: false,
    cause,
  });
}

/** Key builders and parsers of one cluster's permission records. */
export class PermissionKeyspace {
  readonly #namespaces: string;
  readonly #topics: string;

  /** `pulsarRoot` is P/pulsar of the cluster (PulsarKeyspace.root). */
  constructor(pulsarRoot: string) {
    this.#namespaces = `${pulsarRoot}/${PermissionKeySegment.PERMISSIONS}/${PermissionKeySegment.NAMESPACES}/`;
    this.#topics = `${pulsarRoot}/${PermissionKeySegment.PERMISSIONS}/${PermissionKeySegment.TOPICS}/`;
  }

  /** `P/pulsar/permissions/namespaces/{tenant}/{namespace}`. */
  namespaceKey(namespace: NamespaceName): string {
    return `${this.#namespaces}${encodeKeyComponent(namespace.tenant)}/${encodeKeyComponent(namespace.namespace)}`;
  }

  /** `tenant/namespace` of a namespace permissions key; DECODE_ERROR for any other key. */
  parseNamespaceKey(key: string): string {
    const [tenant, namespace] = this.#components(key, this.#namespaces, 2, "Pulsar namespace-permissions");
    return `${tenant!}/${namespace!}`;
  }

  /** `P/pulsar/permissions/topics/{tenant}/{namespace}/{localName}` of `topic` (a partition: its partitioned topic). */
  topicKey(topic: TopicName): string {
    const named = topic.partitionIndex < 0 ? topic : parseTopicName(topic.partitionedTopicName);
    const { tenant, namespace, localName } = named;
    return `${this.#topics}${[tenant, namespace, localName].map(encodeKeyComponent).join("/")}`;
  }

  /** The full topic name a topic permissions key names; DECODE_ERROR for any other key. */
  parseTopicKey(key: string): string {
    const [tenant, namespace, localName] = this.#components(key, this.#topics, 3, "Pulsar topic-permissions");
    const fullName = `${PERSISTENT_DOMAIN}://${tenant!}/${namespace!}/${localName!}`;
    try {
      if (parseTopicName(fullName).fullName === fullName) return fullName;
    } catch (cause) {
      throw malformed(key, "Pulsar topic-permissions", cause);
    }
    throw malformed(key, "Pulsar topic-permissions");
  }

  #components(key: string, prefix: string, count: number, kind: string): string[] {
    const parts = key.startsWith(prefix) ? key.slice(prefix.length).split("/") : [];
    if (parts.length !== count || parts.some((part) => part.length === 0)) throw malformed(key, kind);
    let decoded: string[];
    try {
      decoded = parts.map(decodeKeyComponent);
    } catch (cause) {
      throw malformed(key, kind, cause);
    }
    if (decoded.map(encodeKeyComponent).join("/") !== parts.join("/")) throw malformed(key, kind);
    return decoded;
  }
}
