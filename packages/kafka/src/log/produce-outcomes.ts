// The answers a partition log gives produced batches: appended at an offset (new, or the original offset of a
// retried batch), or failed with a Kafka error. Builders only; which answer applies is decided by the log.
import type { KafkaErrorMapping } from "./map-storage-error.js";
import type { RetainedBatch } from "../producers/producer-state.js";
import type { KafkaTopic } from "../topics/kafka-topic.js";
import { usesLogAppendTime } from "../topics/topic-configs.js";
import type { ProduceOutcome } from "./produce-ticket.js";

/** A storage failure mapped onto Kafka. */
export function failedOutcome(mapped: KafkaErrorMapping, logStartOffset?: number): ProduceOutcome {
  return {
    kind: "failed",
    errorCode: mapped.errorCode,
    message: mapped.message,
    logStartOffset,
    throttleTimeMs: mapped.throttleTimeMs,
  };
}

/** A batch stored at `baseOffset`. */
export function appendedOutcome(
  baseOffset: number,
  logStartOffset: number,
  logAppendTimeMs: number | undefined,
): ProduceOutcome {
  return { kind: "appended", baseOffset, logAppendTimeMs: logAppendTimeMs ?? -1, logStartOffset };
}

/** A retry of a committed batch: its original offset (and, on LogAppendTime topics, its stamped time). */
export function duplicateOutcome(batch: RetainedBatch, logStartOffset: number, topic: KafkaTopic): ProduceOutcome {
  return {
    kind: "appended",
    baseOffset: batch.baseOffset,
    logAppendTimeMs: usesLogAppendTime(topic.configs) ? batch.maxTimestamp : -1,
    logStartOffset,
  };
}
