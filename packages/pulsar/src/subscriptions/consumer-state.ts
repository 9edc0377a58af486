// One connected consumer as dispatch sees it: identity and ordering attributes, the permits it granted (in
// messages), its epoch, and the entries handed to it and not yet acknowledged.
import { ErrorCode, NereusError } from "@nereus/core";
import type { ConsumerListener, ConsumerOptions } from "./subscription-types.js";

/** Mutable dispatch state of one consumer. Invariant: `permits >= 0` unless permit overdraft is enabled. */
export class ConsumerState {
  readonly id: bigint;
  readonly name: string;
  readonly priorityLevel: number;
  readonly ackTimeoutMs: number | undefined;
  readonly listener: ConsumerListener;
  /** Join order among the subscription's consumers (ties of Failover ordering keep it). */
  readonly joinSequence: number;
  permits = 0;
  epoch: bigint;
  active = false;
  /** Offsets handed to this consumer and not acknowledged, released or redelivered since. */
  readonly outstanding = new Set<number>();

  constructor(options: ConsumerOptions, joinSequence: number) {
    checkConsumerOptions(options);
    this.id = options.consumerId;
    this.name = options.consumerName;
    this.priorityLevel = options.priorityLevel ?? 0;
    this.ackTimeoutMs = options.ackTimeoutMs;
    this.listener = options.listener;
    this.epoch = options.epoch ?? 0n;
    this.joinSequence = joinSequence;
  }

  /** True when an entry costing `cost` permits may go to this consumer. */
  canTake(cost: number, overdraft: boolean): boolean {
    return overdraft ? this.permits > 0 : cost <= this.permits;
  }
}

function checkConsumerOptions(options: ConsumerOptions): void {
  const problem = consumerOptionsProblem(options);
  if (problem !== undefined) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `consumer ${String(options.consumerId)}: ${problem}`, {
      retryable: false,
    });
  }
}

function consumerOptionsProblem(options: ConsumerOptions): string | undefined {
  if (typeof options.consumerId !== "bigint" || options.consumerId < 0n) return "id must be a non-negative bigint";
  if (typeof options.consumerName !== "string") return "name must be a string";
  const priority = options.priorityLevel ?? 0;
  if (!Number.isSafeInteger(priority) || priority < 0) return "priority level must be a non-negative integer";
  if (options.epoch !== undefined && (typeof options.epoch !== "bigint" || options.epoch < 0n)) {
    return "epoch must be a non-negative bigint";
  }
  const timeout = options.ackTimeoutMs;
  if (timeout !== undefined && (!Number.isSafeInteger(timeout) || timeout <= 0)) {
    return "ack timeout must be a positive integer of milliseconds";
  }
  if (!["Exclusive", "Failover", "Shared", "Key_Shared"].includes(options.type)) return "unknown subscription type";
  return undefined;
}
