// GET_TOPICS_OF_NAMESPACE, as a pattern consumer (Java's regex subscription) polls it: the persistent topics of a
// namespace as Pulsar lists them — each partition of a partitioned topic (`{name}-partition-{i}`, every i below its
// partition count) and every other topic, sorted. With a topics pattern (at most 50 characters, Pulsar's default
// limit) the list is filtered by it: the pattern, its domain scheme removed, must match the whole name without its
// scheme (a partition by its partitioned topic's name); a pattern this broker cannot compile is not applied and the
// client filters (`filtered` false). The list's hash is Pulsar's: CRC-32C of the sorted names joined by ",", as the
// little-endian hex of Guava's HashCode; when it equals the client's hash no topics are sent (`changed` false).
// Non-persistent topics do not exist here, so NON_PERSISTENT lists none.
import { crc32c } from "@nereus/core";
import { type CommandGetTopicsOfNamespace, ServerError, TopicListMode } from "../protocol/index.js";
import { type NamespaceName, parseNamespaceName, partitionTopicName, parseTopicName } from "../topics/topic-name.js";
import type { ConnectionIo } from "./connection-io.js";
import { errorCommand, errorReplyOf } from "./error-replies.js";
import type { PulsarBrokerContext } from "./pulsar-broker.js";

/** Longest topics pattern the broker applies (Pulsar's subscriptionPatternMaxLength). */
const MAX_TOPICS_PATTERN_LENGTH = 50;
const SCHEME_SEPARATOR = "://";

/** The persistent topics of `namespace`, sorted, partitions listed one by one. */
async function namespaceTopics(
  context: PulsarBrokerContext,
  namespace: NamespaceName,
  signal?: AbortSignal,
): Promise<string[]> {
  const { ledgers } = context;
  const [partitioned, topics] = await Promise.all([
    ledgers.partitionedTopics.list(namespace.tenant, namespace.namespace, signal),
    ledgers.topics.list(namespace.tenant, namespace.namespace, signal),
  ]);
  const names = new Set<string>();
  for (const topic of partitioned) {
    const parsed = parseTopicName(topic.name);
    for (let index = 0; index < topic.partitionCount; index += 1) {
      names.add(partitionTopicName(parsed, index).fullName);
    }
  }
  for (const topic of topics) names.add(topic.name);
  return [...names].sort();
}

/** Pulsar's hash of a topic list (TopicList.calculateHash). */
export function topicListHash(topics: readonly string[]): string {
  const crc = crc32c(new TextEncoder().encode([...topics].sort().join(",")));
  return [crc, crc >>> 8, crc >>> 16, crc >>> 24].map((byte) => (byte & 0xff).toString(16).padStart(2, "0")).join("");
}

/** The topics `pattern` matches, or undefined when the broker does not apply it (too long, does not compile). */
export function filterTopics(topics: readonly string[], pattern: string): string[] | undefined {
  if (pattern.length > MAX_TOPICS_PATTERN_LENGTH) return undefined;
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${withoutDomainScheme(pattern)})$`);
  } catch {
    return undefined;
  }
  return topics.filter((name) => regex.test(withoutScheme(parseTopicName(name).partitionedTopicName)));
}

/** `pattern` without a leading `persistent://` (or any `{domain}://`); an anchor before it stays. */
function withoutDomainScheme(pattern: string): string {
  const at = pattern.indexOf(SCHEME_SEPARATOR);
  if (at < 0) return pattern;
  const rest = pattern.slice(at + SCHEME_SEPARATOR.length);
  return pattern.startsWith("^") ? `^${rest}` : rest;
}

function withoutScheme(name: string): string {
  return name.slice(name.indexOf(SCHEME_SEPARATOR) + SCHEME_SEPARATOR.length);
}

/**
 * Answers GET_TOPICS_OF_NAMESPACE (ERROR for a namespace name that is not `{tenant}/{namespace}`, or one `authorize`
 * refuses).
 */
export async function answerTopicsOfNamespace(
  io: ConnectionIo,
  command: CommandGetTopicsOfNamespace,
  authorize?: (namespace: NamespaceName) => Promise<void>,
): Promise<void> {
  const { requestId } = command;
  let namespace: NamespaceName;
  try {
    namespace = parseNamespaceName(command.namespace);
  } catch (error) {
    io.send(errorCommand(requestId, { error: ServerError.InvalidTopicName, message: errorReplyOf(error).message }));
    return;
  }
  let topics: string[];
  try {
    await authorize?.(namespace);
    topics = command.mode === TopicListMode.NON_PERSISTENT ? [] : await namespaceTopics(io.context, namespace);
  } catch (error) {
    io.send(errorCommand(requestId, errorReplyOf(error)));
    return;
  }
  const filteredTopics = command.topicsPattern === undefined ? undefined : filterTopics(topics, command.topicsPattern);
  const listed = filteredTopics ?? topics;
  const topicsHash = topicListHash(listed);
  const changed = command.topicsHash !== topicsHash;
  io.send({
    type: "GET_TOPICS_OF_NAMESPACE_RESPONSE",
    body: { requestId, topics: changed ? listed : [], filtered: filteredTopics !== undefined, topicsHash, changed },
  });
}
