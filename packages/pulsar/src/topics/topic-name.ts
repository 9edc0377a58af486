// Pulsar topic names: `persistent://{tenant}/{namespace}/{localName}`, with the short forms clients send —
// `{localName}` (in public/default) and `{tenant}/{namespace}/{localName}`. A partition of a partitioned topic is
// the topic `{localName}-partition-{N}`; the suffix counts only when N is a canonical decimal int32 (as in Pulsar,
// `orders-partition-01` is an ordinary topic). Non-persistent topics and the old four-part names with a cluster are
// refused. Parsing is pure; every refusal is INVALID_ARGUMENT with the reason.
import { ErrorCode, NereusError, encodeStrictUtf8 } from "@nereus/core";
import { isWellFormedString } from "@nereus/core/internal";

/** The only topic domain Nereus serves. */
export const PERSISTENT_DOMAIN = "persistent";
/** Tenant and namespace of a topic named by its local name alone. */
const DEFAULT_TENANT = "public";
const DEFAULT_NAMESPACE = "default";
/** What separates a partitioned topic's name from its partition index. */
const PARTITION_SUFFIX = "-partition-";
/** Longest full topic name, in UTF-8 bytes (its stream name must stay within core's 1,024 bytes). */
const MAX_TOPIC_NAME_BYTES = 960;

const MAX_PARTITION_INDEX = 0x7fff_ffff;
/** Pulsar's rule for tenant and namespace names. */
const NAMED_ENTITY = /^[-=:.\w]+$/;
const CANONICAL_INDEX = /^(0|[1-9][0-9]*)$/;

/** A parsed, canonical persistent topic name. */
export interface TopicName {
  /** `persistent://{tenant}/{namespace}/{localName}`. */
  readonly fullName: string;
  readonly tenant: string;
  readonly namespace: string;
  /** The last name component, with the partition suffix when the topic is a partition. */
  readonly localName: string;
  /** The partition index, or -1 when the topic is not a partition of a partitioned topic. */
  readonly partitionIndex: number;
  /** The full name of the partitioned topic this partition belongs to (the full name itself when not a partition). */
  readonly partitionedTopicName: string;
}

function invalid(name: string, reason: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `invalid Pulsar topic name ${JSON.stringify(name)}: ${reason}`, {
    retryable: false,
  });
}

/** The partition index `localName` ends with, or -1 (Pulsar's TopicName.getPartitionIndex). */
function partitionIndexOf(localName: string): number {
  const at = localName.lastIndexOf(PARTITION_SUFFIX);
  if (at < 0) return -1;
  const digits = localName.slice(at + PARTITION_SUFFIX.length);
  if (!CANONICAL_INDEX.test(digits)) return -1;
  const index = Number(digits);
  return index <= MAX_PARTITION_INDEX ? index : -1;
}

/** Splits `name` into tenant, namespace and local name, expanding the short forms. */
function components(name: string): [string, string, string] {
  const scheme = name.indexOf("://");
  if (scheme < 0) {
    const parts = name.split("/");
    if (parts.length === 1) return [DEFAULT_TENANT, DEFAULT_NAMESPACE, name];
    if (parts.length === 3) return parts as [string, string, string];
    throw invalid(name, "a short name is {topic} or {tenant}/{namespace}/{topic}");
  }
  const domain = name.slice(0, scheme);
  if (domain === "non-persistent") throw invalid(name, "non-persistent topics are not supported");
  if (domain !== PERSISTENT_DOMAIN) throw invalid(name, `unknown domain ${JSON.stringify(domain)}`);
  const parts = name.slice(scheme + 3).split("/");
  if (parts.length === 3) return parts as [string, string, string];
  if (parts.length === 4)
    throw invalid(name, "names with a cluster component ({tenant}/{cluster}/{namespace}/{topic}) are not supported");
  throw invalid(name, "expected persistent://{tenant}/{namespace}/{topic}");
}

/**
 * Parses a topic name as a client sends it. Throws INVALID_ARGUMENT for a non-persistent or unknown domain, a
 * wrong number of components, a tenant or namespace outside `[-=:.\w]+`, an empty local name, unpaired UTF-16
 * surrogates, or a full name longer than {@link MAX_TOPIC_NAME_BYTES} UTF-8 bytes.
 */
export function parseTopicName(name: string): TopicName {
  if (typeof name !== "string" || name.length === 0) throw invalid(String(name), "the name is empty");
  if (!isWellFormedString(name)) throw invalid(name, "the name contains an unpaired UTF-16 surrogate");
  const [tenant, namespace, localName] = components(name);
  if (!NAMED_ENTITY.test(tenant)) throw invalid(name, `tenant ${JSON.stringify(tenant)} is not [-=:.\\w]+`);
  if (!NAMED_ENTITY.test(namespace)) throw invalid(name, `namespace ${JSON.stringify(namespace)} is not [-=:.\\w]+`);
  if (localName.length === 0) throw invalid(name, "the topic component is empty");
  const fullName = `${PERSISTENT_DOMAIN}://${tenant}/${namespace}/${localName}`;
  const bytes = encodeStrictUtf8(fullName).length;
  if (bytes > MAX_TOPIC_NAME_BYTES) {
    throw invalid(
      name,
      `the full name is ${String(bytes)} UTF-8 bytes; the maximum is ${String(MAX_TOPIC_NAME_BYTES)}`,
    );
  }
  const partitionIndex = partitionIndexOf(localName);
  const partitionedTopicName =
    partitionIndex < 0 ? fullName : fullName.slice(0, fullName.lastIndexOf(PARTITION_SUFFIX));
  return { fullName, tenant, namespace, localName, partitionIndex, partitionedTopicName };
}

/** A parsed namespace name. */
export interface NamespaceName {
  /** `{tenant}/{namespace}`. */
  readonly name: string;
  readonly tenant: string;
  readonly namespace: string;
}

/** Parses `{tenant}/{namespace}`; INVALID_ARGUMENT unless both parts follow Pulsar's rule `[-=:.\w]+`. */
export function parseNamespaceName(name: string): NamespaceName {
  const parts = typeof name === "string" ? name.split("/") : [];
  const [tenant = "", namespace = ""] = parts;
  if (parts.length !== 2 || !NAMED_ENTITY.test(tenant) || !NAMED_ENTITY.test(namespace)) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `invalid Pulsar namespace ${JSON.stringify(name)}: expected {tenant}/{namespace}, each [-=:.a-zA-Z0-9_]+`,
      { retryable: false },
    );
  }
  return { name, tenant, namespace };
}

/** The name of partition `index` of the partitioned topic `topic` (which must not be a partition itself). */
export function partitionTopicName(topic: TopicName, index: number): TopicName {
  if (topic.partitionIndex >= 0) {
    throw invalid(topic.fullName, "a partition has no partitions of its own");
  }
  if (!Number.isInteger(index) || index < 0 || index > MAX_PARTITION_INDEX) {
    throw invalid(topic.fullName, `partition index ${String(index)} is outside [0, 2^31-1]`);
  }
  return parseTopicName(`${topic.fullName}${PARTITION_SUFFIX}${String(index)}`);
}

/** True when `name` is a canonical full name (what `parseTopicName(name).fullName` returns). */
export function isCanonicalTopicName(name: string): boolean {
  try {
    return parseTopicName(name).fullName === name;
  } catch {
    return false;
  }
}
