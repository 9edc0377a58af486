// Fetch (1), v4-17: whole stored batches from the requested offsets (a fetch offset inside a batch returns that
// batch; clients skip the records below it), within maxBytes across the response and partitionMaxBytes per
// partition, except that the first batch of the first non-empty partition is always returned whole (KIP-74).
// Long poll: when fewer than minBytes are available and no partition has an error, the request waits up to
// maxWaitMs (capped by the broker) and is re-evaluated whenever an append commits to one of its partitions.
// High watermark = last stable offset = the log end; log start = the trim offset; no fetch sessions (sessionId 0
// always, so clients keep sending full requests, and forgotten_topics_data, meaningful only inside a session, is
// ignored); no aborted transactions. v13+ address topics by topic id: ids resolve through the topic registry, the
// response echoes the requested id, and every partition of an id the broker does not know (the zero id included)
// answers UNKNOWN_TOPIC_ID (100), as Kafka does; v4-12 address topics by name (unknown: UNKNOWN_TOPIC_OR_PARTITION).
import type { FetchResponsePartition } from "../../protocol/apis/fetch/fetch-response.js";
import { IsolationLevel } from "../../protocol/apis/fetch/fetch-request.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { ZERO_UUID } from "../../protocol/primitives/uuid.js";
import { RecordParts } from "../../protocol/primitives/record-parts.js";
import type { PartitionLog } from "../../log/partition-log.js";
import type { KafkaTopic } from "../../topics/kafka-topic.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { type TopicLookup, lookupTopic } from "../lookup-topic.js";
import { mapStorageError } from "../../log/map-storage-error.js";

const EMPTY = new Uint8Array(0);
const FINAL_EPOCH = -1;
const INITIAL_EPOCH = 0;
/** The first Fetch version that addresses topics by id instead of name. */
export const FETCH_TOPIC_ID_VERSION = 13;

interface PartitionResult {
  readonly data: FetchResponsePartition;
  readonly bytes: number;
  readonly error: boolean;
}

function partitionData(
  partitionIndex: number,
  errorCode: number,
  highWatermark: number,
  logStartOffset: number,
  records: Uint8Array | RecordParts,
  readCommitted: boolean,
): FetchResponsePartition {
  return {
    partitionIndex,
    errorCode,
    highWatermark,
    lastStableOffset: highWatermark,
    logStartOffset,
    divergingEpoch: { epoch: -1, endOffset: -1 },
    currentLeader: { leaderId: -1, leaderEpoch: -1 },
    snapshotId: { endOffset: -1, epoch: -1 },
    abortedTransactions: readCommitted ? [] : null,
    preferredReadReplica: -1,
    records,
  };
}

export function createFetchHandler(services: BrokerServices): KafkaApiHandler<1> {
  return {
    async handle(context, request) {
      const { body } = request;
      const readCommitted = body.isolationLevel === IsolationLevel.readCommitted;
      const base = { throttleTimeMs: 0, sessionId: 0, nodeEndpoints: [] };
      if (body.sessionId !== 0) return { ...base, errorCode: KafkaErrorCode.FETCH_SESSION_ID_NOT_FOUND, responses: [] };
      if (body.sessionEpoch !== FINAL_EPOCH && body.sessionEpoch !== INITIAL_EPOCH) {
        return { ...base, errorCode: KafkaErrorCode.INVALID_FETCH_SESSION_EPOCH, responses: [] };
      }
      const maxWaitMs = Math.max(0, Math.min(body.maxWaitMs, services.settings.maxFetchWaitMs));
      const deadline = services.clock() + maxWaitMs;
      // One resolved topic per requested topic entry (by id from v13, by name before), each distinct key looked up once.
      const byId = request.apiVersion >= FETCH_TOPIC_ID_VERSION;
      const unknownTopicError = byId ? KafkaErrorCode.UNKNOWN_TOPIC_ID : KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
      const resolved = new Map<string, TopicLookup>();
      const lookups: TopicLookup[] = [];
      for (const requested of body.topics) {
        const key = byId ? requested.topicId : requested.topic;
        let lookup = resolved.get(key);
        if (lookup === undefined) {
          lookup =
            byId && requested.topicId === ZERO_UUID
              ? { kind: "absent" }
              : await lookupTopic(
                  services,
                  byId ? { topicId: requested.topicId } : { name: requested.topic },
                  context.signal,
                );
          resolved.set(key, lookup);
        }
        lookups.push(lookup);
      }
      const topics = lookups.map((lookup) => (lookup.kind === "found" ? lookup.topic : undefined));
      const evaluate = async (): Promise<{
        responses: Array<{ topic: string; topicId: string; partitions: FetchResponsePartition[] }>;
        bytes: number;
        error: boolean;
      }> => {
        let budget = Math.max(1, body.maxBytes);
        let bytes = 0;
        let error = false;
        const responses = [];
        for (const [index, requested] of body.topics.entries()) {
          const topic = topics[index];
          const partitions: FetchResponsePartition[] = [];
          for (const partition of requested.partitions) {
            const result = await fetchPartition(
              lookups[index],
              topic,
              partition.partition,
              partition.fetchOffset,
              partition.currentLeaderEpoch,
              Math.max(0, partition.partitionMaxBytes),
              budget,
              bytes === 0,
            );
            partitions.push(result.data);
            bytes += result.bytes;
            budget = Math.max(0, budget - result.bytes);
            error ||= result.error;
          }
          responses.push({ topic: requested.topic, topicId: requested.topicId, partitions });
        }
        return { responses, bytes, error };
      };

      const fetchPartition = async (
        lookup: TopicLookup | undefined,
        topic: KafkaTopic | undefined,
        partitionIndex: number,
        fetchOffset: number,
        currentLeaderEpoch: number,
        partitionMaxBytes: number,
        budget: number,
        first: boolean,
      ): Promise<PartitionResult> => {
        const fail = (errorCode: number, highWatermark = -1, logStartOffset = -1): PartitionResult => ({
          data: partitionData(partitionIndex, errorCode, highWatermark, logStartOffset, EMPTY, readCommitted),
          bytes: 0,
          error: true,
        });
        if (lookup?.kind === "failed") return fail(lookup.errorCode);
        if (topic === undefined) return fail(unknownTopicError);
        if (partitionIndex < 0 || partitionIndex >= topic.partitionCount)
          return fail(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        if (currentLeaderEpoch > 0) return fail(KafkaErrorCode.UNKNOWN_LEADER_EPOCH);
        const log = services.logs.get(topic.name, partitionIndex);
        try {
          const view = await log.view(topic);
          const { highWatermark, logStartOffset } = view;
          if (fetchOffset < logStartOffset || fetchOffset > highWatermark)
            return fail(KafkaErrorCode.OFFSET_OUT_OF_RANGE, highWatermark, logStartOffset);
          const limit = Math.min(partitionMaxBytes, budget);
          if (fetchOffset === highWatermark || (limit === 0 && !first)) {
            return {
              data: partitionData(
                partitionIndex,
                KafkaErrorCode.NONE,
                highWatermark,
                logStartOffset,
                EMPTY,
                readCommitted,
              ),
              bytes: 0,
              error: false,
            };
          }
          const entries = await log.read(view, fetchOffset, Math.max(1, limit), context.signal);
          const chunks: Uint8Array[] = [];
          let total = 0;
          for (const entry of entries) {
            const size = entry.payload.byteLength;
            if (total + size > limit && !(first && chunks.length === 0)) break;
            chunks.push(entry.payload);
            total += size;
          }
          // The stored batches go into the response as they are (written part by part, never joined into a copy).
          return {
            data: partitionData(
              partitionIndex,
              KafkaErrorCode.NONE,
              highWatermark,
              logStartOffset,
              new RecordParts(chunks),
              readCommitted,
            ),
            bytes: total,
            error: false,
          };
        } catch (error) {
          const mapped = mapStorageError(error);
          if (mapped.action !== "none" && mapped.action !== "recover") log.invalidate();
          services.logger.debug("fetch failed", {
            topic: topic.name,
            partition: partitionIndex,
            error: mapped.message,
          });
          return fail(mapped.errorCode);
        }
      };

      // Subscribed before each evaluation, through the manager (a log dropped while idle is replaced by a new one).
      let watch = new AppendWatch(requestedLogs(services, body.topics, topics));
      let result = await evaluate();
      let waited = false;
      while (result.bytes < body.minBytes && !result.error && !context.waitSignal.aborted) {
        const remaining = deadline - services.clock();
        if (remaining <= 0) break;
        if (!waited) services.metrics.fetchWaits += 1;
        waited = true;
        await watch.wait(remaining, context.waitSignal);
        watch = new AppendWatch(requestedLogs(services, body.topics, topics));
        result = await evaluate();
      }
      watch.close();
      services.metrics.fetchedBytes += result.bytes;
      return { ...base, errorCode: KafkaErrorCode.NONE, responses: result.responses };
    },
  };
}

function requestedLogs(
  services: BrokerServices,
  requested: ReadonlyArray<{ readonly partitions: ReadonlyArray<{ readonly partition: number }> }>,
  topics: ReadonlyArray<KafkaTopic | undefined>,
): PartitionLog[] {
  const logs: PartitionLog[] = [];
  for (const [index, entry] of requested.entries()) {
    const topic = topics[index];
    if (topic === undefined) continue;
    for (const partition of entry.partitions) {
      if (partition.partition >= 0 && partition.partition < topic.partitionCount)
        logs.push(services.logs.get(topic.name, partition.partition));
    }
  }
  return logs;
}

/**
 * Watches partitions for appends from the moment it is created (so an append between evaluating a fetch and
 * starting to wait is not missed).
 */
class AppendWatch {
  #changed = false;
  #wake: (() => void) | undefined;
  readonly #unsubscribes: Array<() => void>;

  constructor(logs: readonly PartitionLog[]) {
    this.#unsubscribes = logs.map((log) =>
      log.onChange(() => {
        this.#changed = true;
        this.#wake?.();
      }),
    );
  }

  /** Resolves on the first append since construction, after `timeoutMs`, or when `signal` aborts. */
  wait(timeoutMs: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.#changed || signal.aborted) {
        this.close();
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        this.#wake = undefined;
        this.close();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal.addEventListener("abort", done, { once: true });
      this.#wake = done;
    });
  }

  close(): void {
    for (const unsubscribe of this.#unsubscribes.splice(0)) unsubscribe();
  }
}
