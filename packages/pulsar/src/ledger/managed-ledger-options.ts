// What a managed ledger is opened with: the part of core's stream store it uses, its timing limits (with their
// defaults), and the topic, cursors, head and shared append slots of one incarnation. Types and defaults only.
import type { StreamHead, StreamStore } from "@nereus/core";
import type { StreamCursors } from "@nereus/cursor";
import type { PulsarTopic } from "../topics/pulsar-topic.js";
import type { AppendSlots } from "./append-slots.js";

/** The part of core's `StreamStore` a ledger uses. */
export type LedgerStreams = Pick<StreamStore, "append" | "recoverAppend" | "read" | "getHead" | "seal">;

/** Timing of a ledger's appends and recoveries; every field has a default (see `DEFAULT_LEDGER_LIMITS`). */
export interface ManagedLedgerLimits {
  /** Deadline of one append (default 30,000 ms). */
  readonly appendTimeoutMs: number;
  /** How long an uncertain append waits for its verdict before failing; recovery goes on (default 30,000 ms). */
  readonly recoveryWaitMs: number;
  /** First and longest pause between recovery and re-read attempts (defaults 10 and 2,000 ms). */
  readonly retryMinDelayMs: number;
  readonly retryMaxDelayMs: number;
}

export const DEFAULT_LEDGER_LIMITS: ManagedLedgerLimits = {
  appendTimeoutMs: 30_000,
  recoveryWaitMs: 30_000,
  retryMinDelayMs: 10,
  retryMaxDelayMs: 2_000,
};

export interface ManagedLedgerOptions {
  readonly topic: PulsarTopic;
  readonly streams: LedgerStreams;
  /** The stream's cursors, opened for this ledger (the ledger closes them). */
  readonly cursors: StreamCursors;
  /** The stream's head when the ledger opened. */
  readonly head: StreamHead;
  readonly limits?: Partial<ManagedLedgerLimits>;
  /** Bounds the appends in flight in the store, shared with the factory's other ledgers (default: this ledger's). */
  readonly appendSlots?: AppendSlots;
}
