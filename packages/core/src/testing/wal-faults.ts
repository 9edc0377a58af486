// Fault rules of the in-memory WAL provider: an ordered list of "the next N matching calls fail this way". It only
// decides which fault applies to a call; the provider carries it out.
import { FaultRules, type FaultRule } from "./fault-rules.js";

/** Provider calls a rule can target. */
export type WalFaultOp = "persist" | "protect" | "read";

/**
 * How a matched call fails:
 * - `fail-before-persist`: `persist`/`protect`/`read` throws a retriable provider error; nothing is stored.
 * - `persist-then-lose-response`: `persist` stores the bytes, then throws as if the acknowledgement was lost.
 * - `corrupt-stored-bytes`: `persist` stores the bytes with one byte flipped and reports success (readers must
 *   detect it through the target checksum).
 * - `hang-until-aborted`: the call never answers until its signal aborts (then it throws CANCELLED).
 */
export type WalFaultMode =
  "fail-before-persist" | "persist-then-lose-response" | "corrupt-stored-bytes" | "hang-until-aborted";

export interface WalFaultRule extends FaultRule<WalFaultMode> {
  readonly op: WalFaultOp;
  /** Narrows the rule to calls of one stream. */
  readonly streamId?: string;
}

/** The armed rules of one provider. Invariant: a rule fires at most `times` times, in insertion order. */
export class WalFaults extends FaultRules<WalFaultMode, WalFaultRule> {
  /** Consumes the first rule matching the call and returns its mode. */
  take(op: WalFaultOp, streamId: string | undefined): WalFaultMode | undefined {
    return this.takeFirst((rule) => rule.op === op && (rule.streamId === undefined || rule.streamId === streamId));
  }
}
