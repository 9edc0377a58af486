// A failed append group: its storage error mapped onto Kafka and answered to every batch of the group. The first
// failure since the pipeline was whole owns the state (dropped unless the error says nothing about it); the groups
// planned behind it are doomed and answer a retriable error. An uncertain failure fences the partition instead
// (fence-until-recovered.ts).
import { AppendFailedError, ErrorCode, NereusError } from "@nereus/core";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { fenceUntilRecovered } from "./fence-until-recovered.js";
import { mapStorageError } from "./map-storage-error.js";
import type { Group, ProduceHost } from "./produce-host.js";
import { failedOutcome } from "./produce-outcomes.js";
import type { ProduceOutcome } from "./produce-ticket.js";

/**
 * `first`: the first failure since the pipeline was whole; later groups were planned behind it and are doomed
 * (their expected start no longer holds), so they answer a retriable error and leave the state to the first.
 * Uncertain failures, first or not, fence the partition until their attempt is resolved.
 */
export function handleAppendFailure(host: ProduceHost, group: Group, error: unknown, first: boolean): void {
  const state = group.state;
  const mapped = mapStorageError(error);
  const attemptId = AppendFailedError.isAppendFailure(error) ? error.attemptId : undefined;
  if (mapped.action === "recover" && attemptId !== undefined) {
    fenceUntilRecovered(host, group, attemptId, mapped.message);
    return;
  }
  let outcome: ProduceOutcome;
  if (first) {
    if (mapped.action !== "none") host.drop(state);
    if (mapped.action === "offline") {
      host.context.logger.error("partition storage error", {
        topic: host.topicName,
        partition: host.partition,
        error: mapped.message,
      });
    }
    outcome = failedOutcome(mapped, state.logStartOffset);
  } else {
    // The usual cause is OFFSET_CONFLICT (the group ahead did not commit); anything else says more about the log.
    if (mapped.action !== "none" && !NereusError.hasCode(error, ErrorCode.OFFSET_CONFLICT)) host.drop(state);
    outcome = {
      kind: "failed",
      errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER,
      message: `an earlier append failed; ${mapped.message}`,
      logStartOffset: state.logStartOffset,
    };
  }
  for (const member of [...group.members, ...group.dependents]) member.ticket.complete(outcome);
}
