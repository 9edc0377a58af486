// DescribeLogDirs (35), v1-4: the broker's one log directory (its data directory, or where its objects live) with
// the size of every partition it holds, as `kafka-log-dirs --describe` and Admin.describeLogDirs read it. A
// partition's size is its stored batches from the one holding the log start to the end, from the stream head
// (log-start-bytes.ts; nothing is loaded). Offset lag is 0 (no replicas), no log is a future one. As Kafka: topics
// null means every partition; a topic or partition this broker does not have (or whose stream is gone) is left out.
// A storage failure answers the directory with KAFKA_STORAGE_ERROR and no topics, as Kafka answers an offline
// directory; a volume whose capacity cannot be read reports -1 for its total and usable bytes.
import { ErrorCode, NereusError } from "@nereus/core";
import type { DescribeLogDirsRequestTopic } from "../../protocol/apis/describe-log-dirs/describe-log-dirs-request.js";
import type {
  DescribeLogDirsResponseTopic,
  DescribeLogDirsResult,
} from "../../protocol/apis/describe-log-dirs/describe-log-dirs-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { KafkaTopic } from "../../topics/kafka-topic.js";
import { AclOperation, CLUSTER_RESOURCE } from "../../security/acl/acl-types.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";

/** Partition sizes read at once. */
const SIZE_CONCURRENCY = 16;

export function createDescribeLogDirsHandler(services: BrokerServices): KafkaApiHandler<35> {
  return {
    async handle(context, request) {
      const { logDir } = services;
      const access = await services.authorizer.access(context);
      if (!access.allows(AclOperation.DESCRIBE, CLUSTER_RESOURCE))
        return { throttleTimeMs: 0, errorCode: KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED, results: [] };
      let result: DescribeLogDirsResult;
      try {
        const wanted = await selectPartitions(services, request.body.topics, context.signal);
        const topics = await measure(services, wanted, context.signal);
        const capacity = await readCapacity(services);
        result = { errorCode: KafkaErrorCode.NONE, logDir: logDir.path, topics, ...capacity };
      } catch (error) {
        services.logger.warn("describe log dirs failed", { logDir: logDir.path, error: String(error) });
        result = {
          errorCode: KafkaErrorCode.KAFKA_STORAGE_ERROR,
          logDir: logDir.path,
          topics: [],
          totalBytes: -1,
          usableBytes: -1,
        };
      }
      return { throttleTimeMs: 0, errorCode: KafkaErrorCode.NONE, results: [result] };
    },
  };
}

interface WantedTopic {
  readonly topic: KafkaTopic;
  readonly partitions: readonly number[];
}

/** The existing topics and partitions the request names (every one when `requested` is null), in request order. */
async function selectPartitions(
  services: BrokerServices,
  requested: readonly DescribeLogDirsRequestTopic[] | null,
  signal?: AbortSignal,
): Promise<WantedTopic[]> {
  const all = (count: number): number[] => Array.from({ length: count }, (_, index) => index);
  if (requested === null)
    return (await services.registry.list(signal)).map((topic) => ({ topic, partitions: all(topic.partitionCount) }));
  const wanted = new Map<string, { topic: KafkaTopic; partitions: Set<number> }>();
  for (const { topic: name, partitions } of requested) {
    const topic = wanted.get(name)?.topic ?? (await services.registry.lookup(name, signal));
    if (topic === undefined) continue;
    const entry = wanted.get(name) ?? { topic, partitions: new Set<number>() };
    for (const partition of partitions)
      if (partition >= 0 && partition < topic.partitionCount) entry.partitions.add(partition);
    wanted.set(name, entry);
  }
  return [...wanted.values()]
    .filter((entry) => entry.partitions.size > 0)
    .map(({ topic, partitions }) => ({ topic, partitions: [...partitions] }));
}

/**
 * Reads the sizes, at most SIZE_CONCURRENCY at once. A partition whose stream is gone or no longer active (its topic
 * is being deleted) is left out, as Kafka leaves out a log it no longer has.
 */
async function measure(
  services: BrokerServices,
  wanted: readonly WantedTopic[],
  signal?: AbortSignal,
): Promise<DescribeLogDirsResponseTopic[]> {
  const jobs = wanted.flatMap(({ topic, partitions }, topicIndex) =>
    partitions.map((partition, slot) => ({ topic, partition, topicIndex, slot })),
  );
  const sizes = wanted.map(({ partitions }) => new Array<number | undefined>(partitions.length));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      try {
        sizes[job.topicIndex]![job.slot] = await services.logs
          .get(job.topic.name, job.partition)
          .size(job.topic, signal);
      } catch (error) {
        if (
          !NereusError.is(error) ||
          (error.code !== ErrorCode.STREAM_NOT_FOUND && error.code !== ErrorCode.STREAM_NOT_ACTIVE)
        )
          throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SIZE_CONCURRENCY, jobs.length) }, worker));
  return wanted
    .map(({ topic, partitions }, topicIndex) => ({
      name: topic.name,
      partitions: partitions.flatMap((partitionIndex, slot) => {
        const partitionSize = sizes[topicIndex]![slot];
        return partitionSize === undefined ? [] : [{ partitionIndex, partitionSize, offsetLag: 0, isFutureKey: false }];
      }),
    }))
    .filter((topic) => topic.partitions.length > 0);
}

async function readCapacity(services: BrokerServices): Promise<{ totalBytes: number; usableBytes: number }> {
  const { logDir } = services;
  if (logDir.capacity === undefined) return { totalBytes: -1, usableBytes: -1 };
  try {
    return await logDir.capacity();
  } catch (error) {
    services.logger.warn("log directory capacity unreadable", { logDir: logDir.path, error: String(error) });
    return { totalBytes: -1, usableBytes: -1 };
  }
}
