// The fence an uncertain append raises: the partition answers no produce until `recoverAppend` resolved the group's
// attempt (recover-uncertain-append.ts). The group's tickets wait for the verdict (at most their timeout) and are
// answered after the fence came down; the state is dropped and reloaded once every recovery of the state has ended.
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { appendedOutcome } from "./produce-outcomes.js";
import type { Group, ProduceHost } from "./produce-host.js";
import { recoverUncertainAppend } from "./recover-uncertain-append.js";

/**
 * Fences the partition until `recoverAppend` resolves the group's attempt; its tickets wait for the verdict
 * (at most their timeout). The state is dropped and reloaded once every recovery of the state has ended.
 */
export function fenceUntilRecovered(host: ProduceHost, group: Group, attemptId: string, message: string): void {
  const state = group.state;
  host.context.events.fenced();
  host.context.logger.warn("uncertain append: partition fenced until recovery", {
    topic: host.topicName,
    partition: host.partition,
    streamId: state.streamId,
    attemptId,
    error: message,
  });
  const verdict = recoverUncertainAppend(host.context, state.streamId, attemptId).then(
    (result) =>
      result === undefined ? "not-committed" : result.startOffset === group.expectedStart ? "committed" : "unknown",
    () => "unknown",
  );
  const fence: Promise<void> = Promise.all([state.fence, verdict]).then(noop);
  state.fence = fence;
  // Tickets are answered after the fence came down (when no later recovery raised it again), so a client that
  // retries on the answer finds the partition writable.
  const lifted = fence.then(() => {
    if (state.fence !== fence) return;
    host.drop(state);
    host.drain();
  });
  const answer = lifted.then(() => verdict);
  for (const member of [
    ...group.members,
    ...group.dependents.map((dependent) => ({ ...dependent.original, ticket: dependent.ticket })),
  ]) {
    const timer = setTimeout(
      () => {
        member.ticket.complete({
          kind: "failed",
          errorCode: KafkaErrorCode.REQUEST_TIMED_OUT,
          message: "the append outcome is still being recovered",
        });
      },
      Math.max(0, member.timeoutMs),
    );
    timer.unref?.();
    void answer.then((resolved) => {
      clearTimeout(timer);
      member.ticket.complete(
        resolved === "committed"
          ? appendedOutcome(member.baseOffset, state.logStartOffset, group.logAppendTimeMs)
          : resolved === "not-committed"
            ? {
                kind: "failed",
                errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER,
                message: "the append did not commit",
                logStartOffset: state.logStartOffset,
              }
            : {
                kind: "failed",
                errorCode: KafkaErrorCode.REQUEST_TIMED_OUT,
                message: "the append outcome could not be resolved",
              },
      );
    });
  }
}

function noop(): void {
  return undefined;
}
