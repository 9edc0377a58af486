// Plans one append group of a partition: runs the idempotent-producer checks of each submitted batch against the
// projection (committed state overlaid by every group in flight), assigns offsets from the projected end, and
// prepares the stored entries. Batches that are not appended are answered here (retries of committed batches,
// epoch and sequence errors) or, when they retry a batch of a group still in flight, attached to that group as
// dependents. Does not append and does not touch the committed state.
import { type ProducedBatch, type ProducerEntry, checkBatch, withBatch } from "../producers/producer-state.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { KafkaTopic } from "../topics/kafka-topic.js";
import { usesLogAppendTime } from "../topics/topic-configs.js";
import type {
  AppendPipeline,
  CommittedLog,
  GroupDependent,
  GroupEntry,
  GroupMember,
  InFlightGroup,
} from "./append-pipeline.js";
import { duplicateOutcome } from "./produce-outcomes.js";
import type { ProduceOutcome, ProduceTicket } from "./produce-ticket.js";
import { prepareStoredBatch, storedBatchCrc32c } from "./stored-batch.js";

/** The committed state a group is planned on. */
export interface PlannedLog extends CommittedLog {
  readonly logStartOffset: number;
}

/** What a plan decided. */
export interface AppendPlan<State extends PlannedLog> {
  /** The group to append; undefined when no batch needs appending. */
  readonly group: InFlightGroup<State> | undefined;
  /** Tickets answered without an append. */
  readonly answers: ReadonlyArray<{ readonly ticket: ProduceTicket; readonly outcome: ProduceOutcome }>;
  /** Retried batches found (answered, or attached to the group appending their original). */
  readonly duplicates: number;
}

/** Plans `tickets` (submitted, same topic, in order) as the next group after the ones in `pipeline`. */
export function planAppendGroup<State extends PlannedLog>(
  tickets: readonly ProduceTicket[],
  state: State,
  pipeline: AppendPipeline<State>,
  topic: KafkaTopic,
  nowMs: number,
): AppendPlan<State> {
  const logAppendTimeMs = usesLogAppendTime(topic.configs) ? nowMs : undefined;
  const overlay = new Map<bigint, ProducerEntry>();
  const members: GroupMember[] = [];
  const dependents: GroupDependent[] = [];
  const entries: GroupEntry[] = [];
  const answers: Array<{ ticket: ProduceTicket; outcome: ProduceOutcome }> = [];
  let duplicates = 0;
  const expectedStart = pipeline.projectedEnd(state);
  let next = expectedStart;
  for (const ticket of tickets) {
    const submission = ticket.submission;
    if (submission === undefined) continue;
    const { header } = submission;
    if (header.producerId >= 0n) {
      const produced: ProducedBatch = {
        producerId: header.producerId,
        producerEpoch: header.producerEpoch,
        baseSequence: header.baseSequence,
        lastOffsetDelta: header.lastOffsetDelta,
        recordCount: header.recordCount,
        maxTimestamp: logAppendTimeMs ?? header.maxTimestamp,
      };
      const entry = overlay.get(header.producerId) ?? pipeline.projectedProducer(state, header.producerId);
      const verdict = checkBatch(entry, produced);
      if (verdict.kind === "duplicate") {
        duplicates += 1;
        const baseOffset = verdict.batch.baseOffset;
        const inThisGroup = members.find((member) => member.baseOffset === baseOffset);
        const inFlight = inThisGroup === undefined ? pipeline.memberAt(baseOffset) : undefined;
        if (inThisGroup !== undefined) dependents.push({ ticket, original: inThisGroup });
        else if (inFlight !== undefined) inFlight.group.dependents.push({ ticket, original: inFlight.member });
        else answers.push({ ticket, outcome: duplicateOutcome(verdict.batch, state.logStartOffset, topic) });
        continue;
      }
      if (verdict.kind === "invalid-epoch") {
        answers.push({
          ticket,
          outcome: {
            kind: "failed",
            errorCode: KafkaErrorCode.INVALID_PRODUCER_EPOCH,
            message: verdict.message,
            logStartOffset: state.logStartOffset,
          },
        });
        continue;
      }
      if (verdict.kind === "out-of-order") {
        answers.push({
          ticket,
          outcome: {
            kind: "failed",
            errorCode: KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
            message: verdict.message,
            logStartOffset: state.logStartOffset,
          },
        });
        continue;
      }
      overlay.set(header.producerId, withBatch(entry, produced, next));
    }
    const payload = prepareStoredBatch(submission.batch, next, logAppendTimeMs);
    entries.push({ payload, recordCount: header.recordCount, payloadCrc32c: storedBatchCrc32c(payload) });
    members.push({ ticket, baseOffset: next, timeoutMs: submission.timeoutMs });
    next += header.recordCount;
  }
  const group =
    entries.length === 0
      ? undefined
      : { state, expectedStart, end: next, entries, members, dependents, overlay, logAppendTimeMs };
  return { group, answers, duplicates };
}
