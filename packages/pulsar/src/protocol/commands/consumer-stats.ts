// CONSUMER_STATS and its response: broker-side statistics of one consumer, asked by the client.
import { defineMessage } from "../wire/message-schema.js";
import { bool, double, string, uint64 } from "../wire/proto-type.js";
import { optional, required } from "../wire/field-spec.js";
import { serverErrorType } from "../messages/server-error.js";

/** CONSUMER_STATS. */
export interface CommandConsumerStats {
  readonly requestId: bigint;
  readonly consumerId: bigint;
}

export const CommandConsumerStatsCodec = defineMessage<CommandConsumerStats>("CommandConsumerStats", {
  requestId: required(1, uint64),
  consumerId: required(4, uint64),
});

/** CONSUMER_STATS_RESPONSE: rates are per second. */
export interface CommandConsumerStatsResponse {
  readonly requestId: bigint;
  /** A ServerError value, on failure. */
  readonly errorCode?: number;
  readonly errorMessage?: string;
  readonly msgRateOut?: number;
  /** Bytes per second delivered. */
  readonly msgThroughputOut?: number;
  readonly msgRateRedeliver?: number;
  readonly consumerName?: string;
  readonly availablePermits?: bigint;
  readonly unackedMessages?: bigint;
  readonly blockedConsumerOnUnackedMsgs?: boolean;
  readonly address?: string;
  readonly connectedSince?: string;
  /** Subscription type name (`Exclusive`, `Shared`, ...). */
  readonly type?: string;
  readonly msgRateExpired?: number;
  readonly msgBacklog?: bigint;
  readonly messageAckRate?: number;
}

export const CommandConsumerStatsResponseCodec = defineMessage<CommandConsumerStatsResponse>(
  "CommandConsumerStatsResponse",
  {
    requestId: required(1, uint64),
    errorCode: optional(2, serverErrorType),
    errorMessage: optional(3, string),
    msgRateOut: optional(4, double),
    msgThroughputOut: optional(5, double),
    msgRateRedeliver: optional(6, double),
    consumerName: optional(7, string),
    availablePermits: optional(8, uint64),
    unackedMessages: optional(9, uint64),
    blockedConsumerOnUnackedMsgs: optional(10, bool),
    address: optional(11, string),
    connectedSince: optional(12, string),
    type: optional(13, string),
    msgRateExpired: optional(14, double),
    msgBacklog: optional(15, uint64),
    messageAckRate: optional(16, double),
  },
);
