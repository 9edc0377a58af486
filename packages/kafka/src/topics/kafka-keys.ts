// Metadata key layout of the Kafka adapter's own records, under the cluster prefix P = /nereus/clusters/{cluster}:
//
//   P/kafka/topics/{topicName}                one KafkaTopic record per topic name
//   P/kafka/topic-claims/{collisionForm}      the topic holding a name's '.'→'_' form (a KafkaTopicRef)
//   P/kafka/topic-ids/{topicId}               the name of the topic with that id (a KafkaTopicRef)
//   P/kafka/topic-index                       present once every topic record has its claim and id keys
//   P/kafka/producer-ids                      the producer-id block counter (InitProducerId)
//   P/kafka/producer-state/{streamId}         the producer-state checkpoint of one partition stream
//
// Dynamic components go through core's key-component codec. Other adapter records (consumer groups) live beside
// these under P/kafka/ in their own folders.
import { ErrorCode, NereusError } from "@nereus/core";
import { clusterPrefix, decodeKeyComponent, encodeKeyComponent } from "@nereus/core/internal";
import { collisionForm } from "./topic-name.js";

/** Fixed path segments (durable; never rename). */
const KafkaKeySegment = {
  ROOT: "kafka",
  TOPICS: "topics",
  TOPIC_CLAIMS: "topic-claims",
  TOPIC_IDS: "topic-ids",
  TOPIC_INDEX: "topic-index",
  PRODUCER_IDS: "producer-ids",
  PRODUCER_STATE: "producer-state",
  LOG_START: "log-start",
} as const;

/** Key builders and parsers for one cluster. */
export class KafkaKeyspace {
  readonly prefix: string;

  constructor(cluster: string) {
    this.prefix = clusterPrefix(cluster);
  }

  /** `P/kafka/topics/`: scan prefix of every topic record. */
  topicsPrefix(): string {
    return `${this.prefix}/${KafkaKeySegment.ROOT}/${KafkaKeySegment.TOPICS}/`;
  }

  /** `P/kafka/topics/{name}`. */
  topicKey(name: string): string {
    return `${this.topicsPrefix()}${encodeKeyComponent(name)}`;
  }

  /** The topic name a topic key names; DECODE_ERROR for any other key. */
  parseTopicKey(key: string): string {
    const prefix = this.topicsPrefix();
    const component = key.startsWith(prefix) ? key.slice(prefix.length) : "";
    if (component.length === 0 || component.includes("/")) {
      throw new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not a Kafka topic key`, {
        retryable: false,
      });
    }
    return decodeKeyComponent(component);
  }

  /** `P/kafka/topic-claims/{collisionForm(name)}`: one key for every name that collides with `name`. */
  topicClaimKey(name: string): string {
    return `${this.prefix}/${KafkaKeySegment.ROOT}/${KafkaKeySegment.TOPIC_CLAIMS}/${encodeKeyComponent(collisionForm(name))}`;
  }

  /** `P/kafka/topic-ids/{topicId}`. */
  topicIdKey(topicId: string): string {
    return `${this.prefix}/${KafkaKeySegment.ROOT}/${KafkaKeySegment.TOPIC_IDS}/${encodeKeyComponent(topicId)}`;
  }

  /** `P/kafka/topic-index`: the marker that the claim and id keys cover every topic. */
  topicIndexKey(): string {
    return `${this.prefix}/${KafkaKeySegment.ROOT}/${KafkaKeySegment.TOPIC_INDEX}`;
  }

  /** `P/kafka/producer-ids`. */
  producerIdsKey(): string {
    return `${this.prefix}/${KafkaKeySegment.ROOT}/${KafkaKeySegment.PRODUCER_IDS}`;
  }

  /** `P/kafka/producer-state/{streamId}`. */
  producerStateKey(streamId: string): string {
    return `${this.prefix}/${KafkaKeySegment.ROOT}/${KafkaKeySegment.PRODUCER_STATE}/${encodeKeyComponent(streamId)}`;
  }

  /** `P/kafka/log-start/{streamId}`: what the partition's batches below its log start add up to. */
  logStartKey(streamId: string): string {
    return `${this.prefix}/${KafkaKeySegment.ROOT}/${KafkaKeySegment.LOG_START}/${encodeKeyComponent(streamId)}`;
  }

  /** The stream id a log-start key names; DECODE_ERROR for any other key. */
  parseLogStartKey(key: string): string {
    const prefix = `${this.prefix}/${KafkaKeySegment.ROOT}/${KafkaKeySegment.LOG_START}/`;
    const component = key.startsWith(prefix) ? key.slice(prefix.length) : "";
    if (component.length === 0 || component.includes("/")) {
      throw new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not a log-start key`, {
        retryable: false,
      });
    }
    return decodeKeyComponent(component);
  }

  /** The stream id a producer-state key names; DECODE_ERROR for any other key. */
  parseProducerStateKey(key: string): string {
    const prefix = `${this.prefix}/${KafkaKeySegment.ROOT}/${KafkaKeySegment.PRODUCER_STATE}/`;
    const component = key.startsWith(prefix) ? key.slice(prefix.length) : "";
    if (component.length === 0 || component.includes("/")) {
      throw new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not a producer-state key`, {
        retryable: false,
      });
    }
    return decodeKeyComponent(component);
  }
}
