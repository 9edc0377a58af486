// Settles one append group once every group ahead of it has been settled: a failure goes to handle-append-failure.ts
// (and breaks the pipeline); a success at the planned range is applied to the committed state
// (commit-append-group.ts) unless a group ahead failed, then every batch of the group is answered. A committed range
// other than the planned one drops the state (never guessed) and answers KAFKA_STORAGE_ERROR.
import type { AppendResult } from "@nereus/core";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { AppendPipeline } from "./append-pipeline.js";
import { commitAppendGroup } from "./commit-append-group.js";
import { handleAppendFailure } from "./handle-append-failure.js";
import type { Group, ProduceHost } from "./produce-host.js";
import { appendedOutcome } from "./produce-outcomes.js";
import type { ProduceOutcome } from "./produce-ticket.js";
import type { PartitionState } from "./partition-state.js";

/** What a group's append came to. */
export type AppendOutcome =
  { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly error: unknown };

export function settleAppendGroup(
  host: ProduceHost,
  pipeline: AppendPipeline<PartitionState>,
  group: Group,
  outcome: AppendOutcome,
): void {
  const state = group.state;
  if (!outcome.ok) {
    const first = !pipeline.broken;
    pipeline.fail();
    handleAppendFailure(host, group, outcome.error, first);
    return;
  }
  const { result } = outcome;
  if (result.startOffset !== group.expectedStart || result.endOffset !== group.end) {
    // Core guarantees the range; if it ever differs, the stored base offsets are wrong: reload, never guess.
    host.context.logger.error("append committed an unexpected range", {
      streamId: state.streamId,
      expectedStart: group.expectedStart,
      expectedEnd: group.end,
      result,
    });
    pipeline.fail();
    host.drop(state);
    const failed: ProduceOutcome = {
      kind: "failed",
      errorCode: KafkaErrorCode.KAFKA_STORAGE_ERROR,
      message: "append committed an unexpected range",
    };
    for (const member of [...group.members, ...group.dependents]) member.ticket.complete(failed);
    return;
  }
  if (pipeline.broken) {
    // A group ahead failed, yet this one committed at its planned offsets (only possible when the log end moved
    // to exactly where this group expected it). Its batches are stored where planned, so the answer is true, but
    // the committed state misses the failed group: reload it.
    host.context.logger.warn("an append committed behind a failed one: reloading the partition", {
      topic: host.topicName,
      partition: host.partition,
      streamId: state.streamId,
    });
    const loaded = host.loadedState();
    host.drop(loaded?.streamId === state.streamId ? loaded : state);
  } else {
    commitAppendGroup(host, group);
  }
  for (const member of group.members)
    member.ticket.complete(appendedOutcome(member.baseOffset, state.logStartOffset, group.logAppendTimeMs));
  for (const dependent of group.dependents)
    dependent.ticket.complete(
      appendedOutcome(dependent.original.baseOffset, state.logStartOffset, group.logAppendTimeMs),
    );
}
