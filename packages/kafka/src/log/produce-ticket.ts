// A produce ticket holds one partition's place in its append order. Handlers reserve tickets synchronously, in the
// order requests arrived, before any asynchronous work (topic lookup, validation); the partition log appends
// submitted batches strictly in ticket order and skips cancelled tickets. That keeps a client's pipelined
// batches (max.in.flight > 1) in order even when the lookups of later requests finish first.
import type { RecordBatchHeader } from "../protocol/records/record-batch-header.js";
import type { KafkaTopic } from "../topics/kafka-topic.js";

/** A validated batch for one partition. */
export interface ProduceSubmission {
  readonly topic: KafkaTopic;
  /** The produced batch: a view into the request frame, handed over — the log stamps its offset in place and stores these very bytes (the caller never reuses them). */
  readonly batch: Uint8Array;
  readonly header: RecordBatchHeader;
  /** How long the request may wait for an uncertain append to be resolved (Produce timeoutMs). */
  readonly timeoutMs: number;
}

/** What became of a submitted batch. */
export type ProduceOutcome =
  | {
      readonly kind: "appended";
      readonly baseOffset: number;
      /** Broker time stamped on LogAppendTime topics, else -1. */
      readonly logAppendTimeMs: number;
      readonly logStartOffset: number;
    }
  | {
      readonly kind: "failed";
      readonly errorCode: number;
      readonly message: string;
      readonly logStartOffset?: number;
      readonly throttleTimeMs?: number;
      /** The records to blame, by index inside the batch (Produce v8+ record_errors). */
      readonly recordErrors?: ReadonlyArray<{ readonly batchIndex: number; readonly message: string }>;
    };

/** One reserved place in a partition's append order. Resolved exactly once: submitted or cancelled. */
export class ProduceTicket {
  #state: "reserved" | "submitted" | "cancelled" = "reserved";
  #submission: ProduceSubmission | undefined;
  #settle: ((outcome: ProduceOutcome) => void) | undefined;
  readonly #onResolved: () => void;
  readonly outcome: Promise<ProduceOutcome>;

  constructor(onResolved: () => void) {
    this.#onResolved = onResolved;
    this.outcome = new Promise<ProduceOutcome>((resolve) => {
      this.#settle = resolve;
    });
  }

  get state(): "reserved" | "submitted" | "cancelled" {
    return this.#state;
  }

  get submission(): ProduceSubmission | undefined {
    return this.#submission;
  }

  /** Hands the batch to the log; resolves with its outcome. */
  submit(submission: ProduceSubmission): Promise<ProduceOutcome> {
    if (this.#state !== "reserved") throw new TypeError(`produce ticket already ${this.#state}`);
    this.#state = "submitted";
    this.#submission = submission;
    this.#onResolved();
    return this.outcome;
  }

  /** Gives the place up (the request failed validation for this partition). Idempotent. */
  cancel(): void {
    if (this.#state !== "reserved") return;
    this.#state = "cancelled";
    this.#onResolved();
  }

  /** Settles the outcome (first call wins). Used by the log. */
  complete(outcome: ProduceOutcome): void {
    const settle = this.#settle;
    this.#settle = undefined;
    settle?.(outcome);
  }
}
