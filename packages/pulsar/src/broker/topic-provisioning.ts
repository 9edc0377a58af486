// Which topics exist and which are created as clients use them, by the namespace's auto-topic-creation policy (else
// the broker's default), as Apache Pulsar decides it:
//   - PARTITIONED_METADATA of an unknown topic that may be created (metadataAutoCreationEnabled not false) creates
//     partitioned metadata with the policy's default partition count when the policy's type is "partitioned";
//     otherwise it answers 0 partitions (the PRODUCER or SUBSCRIBE that follows creates the topic, or is refused).
//     With metadataAutoCreationEnabled false an unknown topic is TopicNotFound.
//   - PRODUCER / SUBSCRIBE on a partition `{name}-partition-N` of a partitioned topic creates that partition when
//     N is below the partition count (whatever the policy: the partitioned topic exists), NotAllowed otherwise.
//   - PRODUCER / SUBSCRIBE on a partitioned topic's own name is NotAllowed (clients use its partitions).
//   - PRODUCER / SUBSCRIBE on any other unknown topic creates it (not partitioned) when the policy allows automatic
//     creation and the client did not ask otherwise (SUBSCRIBE.forceTopicCreation false); else TopicNotFound.
// A topic is created with its effective storage profile (topic policy, else namespace policy, else the broker's
// default), fixed for that incarnation.
import { ErrorCode, NereusError } from "@nereus/core";
import { topicNotFound } from "../ledger/ledger-errors.js";
import { namespaceOf } from "../topics/policy-resolver.js";
import { type TopicName, parseTopicName } from "../topics/topic-name.js";
import type { PulsarBrokerContext } from "./pulsar-broker.js";

function notAllowed(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}

/** The topics of one broker as PARTITIONED_METADATA, PRODUCER and SUBSCRIBE see them (see the module comment). */
export class TopicProvisioning {
  readonly #context: PulsarBrokerContext;

  constructor(context: PulsarBrokerContext) {
    this.#context = context;
  }

  /**
   * The partition count PARTITIONED_METADATA answers for `topic` (0: not partitioned), creating partitioned metadata
   * when the policy says so and `mayCreate`. TOPIC_NOT_FOUND for an unknown topic when not `mayCreate`.
   */
  async partitionCount(topic: TopicName, mayCreate: boolean, signal?: AbortSignal): Promise<number> {
    if (topic.partitionIndex >= 0) return 0;
    const { ledgers, policies } = this.#context;
    const partitioned = await ledgers.partitionedTopics.get(topic, signal);
    if (partitioned !== undefined) return partitioned.partitionCount;
    if ((await ledgers.topics.get(topic, signal)) !== undefined) return 0;
    if (!mayCreate) throw topicNotFound(topic.fullName);
    const auto = await policies.autoTopicCreation(namespaceOf(topic), signal);
    if (!auto.allowed || auto.type !== "partitioned") return 0;
    const created = await ledgers.partitionedTopics.create(topic, auto.defaultPartitions, signal);
    // A concurrent creation with another count won: that count is the topic's.
    return created.ok ? created.topic.partitionCount : (created.current?.partitionCount ?? auto.defaultPartitions);
  }

  /**
   * Makes sure `topic` has an incarnation before a PRODUCER or SUBSCRIBE opens its ledger, creating it when the
   * rules allow (`create` false: only partitions of existing partitioned topics are created). TOPIC_NOT_FOUND or
   * INVALID_ARGUMENT (NotAllowed) otherwise.
   */
  async prepare(topic: TopicName, create: boolean, signal?: AbortSignal): Promise<void> {
    const { ledgers, policies } = this.#context;
    const open = await ledgers.opened(topic);
    if (open !== undefined && open.state !== "CLOSED" && open.state !== "FAILED") return;
    const base = topic.partitionIndex >= 0 ? parseTopicName(topic.partitionedTopicName) : topic;
    const partitioned = await ledgers.partitionedTopics.get(base, signal);
    if (partitioned !== undefined && topic.partitionIndex < 0) {
      throw notAllowed(`${topic.fullName} is a partitioned topic: use its partitions`);
    }
    if (partitioned !== undefined && topic.partitionIndex >= partitioned.partitionCount) {
      throw notAllowed(
        `${topic.fullName}: ${base.fullName} has ${String(partitioned.partitionCount)} partition(s) only`,
      );
    }
    if ((await ledgers.topics.get(topic, signal)) !== undefined) return;
    if (partitioned === undefined) {
      const auto = await policies.autoTopicCreation(namespaceOf(topic), signal);
      if (!create || !auto.allowed) throw topicNotFound(topic.fullName);
    }
    // Through the ledger factory, so that concurrent first uses of a topic share one creation (and one ledger).
    const { storageProfile } = await policies.effective(topic, signal);
    await ledgers.open(topic, { profile: storageProfile, signal });
  }
}
