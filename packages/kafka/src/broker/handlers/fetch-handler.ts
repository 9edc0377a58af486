// Fetch (1), v4-12: whole stored batches from the requested offsets (a fetch offset inside a batch returns that
// batch; clients skip the records below it), within maxBytes across the response and partitionMaxBytes per
// partition, except that the first batch of the first non-empty partition is always returned whole (KIP-74).
// Long poll: when fewer than minBytes are available and no partition has an error, the request waits up to
// maxWaitMs (capped by the broker) and is re-evaluated whenever an append commits to one of its partitions.
// High watermark = last stable offset = the log end; log start = the trim offset; no fetch sessions (sessionId 0
// always, so clients keep sending full requests); no aborted transactions.
import type { FetchResponsePartition } from "../../protocol/apis/fetch/fetch-response.js";
import { IsolationLevel } from "../../protocol/apis/fetch/fetch-request.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { PartitionLog } from "../../log/partition-log.js";
import type { KafkaTopic } from "../../topics/kafka-topic.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import { mapStorageError } from "../map-storage-error.js";

const EMPTY = new Uint8Array(0);
const FINAL_EPOCH = -1;
const INITIAL_EPOCH = 0;

interface PartitionResult {
  readonly data: FetchResponsePartition;
  readonly bytes: number;
  readonly error: boolean;
}

function partitionData(partitionIndex: number, errorCode: number, highWatermark: number, logStartOffset: number, records: Uint8Array, readCommitted: boolean): FetchResponsePartition {
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

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
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
      const topics = new Map<string, KafkaTopic | undefined>();
      for (const requested of body.topics) {
        if (topics.has(requested.topic)) continue;
        try {
          topics.set(requested.topic, services.registry.cached(requested.topic) ?? (await services.registry.lookup(requested.topic, context.signal)));
        } catch (error) {
          services.logger.warn("topic lookup failed", { topic: requested.topic, error: String(error) });
          topics.set(requested.topic, undefined);
        }
      }

      const evaluate = async (): Promise<{ responses: Array<{ topic: string; topicId: string; partitions: FetchResponsePartition[] }>; bytes: number; error: boolean }> => {
        let budget = Math.max(1, body.maxBytes);
        let bytes = 0;
        let error = false;
        const responses = [];
        for (const requested of body.topics) {
          const topic = topics.get(requested.topic);
          const partitions: FetchResponsePartition[] = [];
          for (const partition of requested.partitions) {
            const result = await fetchPartition(topic, partition.partition, partition.fetchOffset, partition.currentLeaderEpoch, Math.max(0, partition.partitionMaxBytes), budget, bytes === 0);
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
        if (topic === undefined || partitionIndex < 0 || partitionIndex >= topic.partitionCount) return fail(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        if (currentLeaderEpoch > 0) return fail(KafkaErrorCode.UNKNOWN_LEADER_EPOCH);
        const log = services.logs.get(topic.name, partitionIndex);
        try {
          const view = await log.view(topic);
          const { highWatermark, logStartOffset } = view;
          if (fetchOffset < logStartOffset || fetchOffset > highWatermark) return fail(KafkaErrorCode.OFFSET_OUT_OF_RANGE, highWatermark, logStartOffset);
          const limit = Math.min(partitionMaxBytes, budget);
          if (fetchOffset === highWatermark || (limit === 0 && !first)) {
            return { data: partitionData(partitionIndex, KafkaErrorCode.NONE, highWatermark, logStartOffset, EMPTY, readCommitted), bytes: 0, error: false };
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
          return { data: partitionData(partitionIndex, KafkaErrorCode.NONE, highWatermark, logStartOffset, concat(chunks, total), readCommitted), bytes: total, error: false };
        } catch (error) {
          const mapped = mapStorageError(error);
          if (mapped.action !== "none" && mapped.action !== "recover") log.invalidate();
          services.logger.debug("fetch failed", { topic: topic.name, partition: partitionIndex, error: mapped.message });
          return fail(mapped.errorCode);
        }
      };

      // Subscribed before each evaluation, through the manager (a log dropped while idle is replaced by a new one).
      let watch = new AppendWatch(requestedLogs(services, body.topics, topics));
      let result = await evaluate();
      let waited = false;
      while (result.bytes < body.minBytes && !result.error && !context.signal.aborted) {
        const remaining = deadline - services.clock();
        if (remaining <= 0) break;
        if (!waited) services.metrics.fetchWaits += 1;
        waited = true;
        await watch.wait(remaining, context.signal);
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
  requested: ReadonlyArray<{ readonly topic: string; readonly partitions: ReadonlyArray<{ readonly partition: number }> }>,
  topics: ReadonlyMap<string, KafkaTopic | undefined>,
): PartitionLog[] {
  const logs: PartitionLog[] = [];
  for (const entry of requested) {
    const topic = topics.get(entry.topic);
    if (topic === undefined) continue;
    for (const partition of entry.partitions) {
      if (partition.partition >= 0 && partition.partition < topic.partitionCount) logs.push(services.logs.get(topic.name, partition.partition));
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
