// Fault rules for the in-memory MetadataStore: a small, ordered list of "the next N matching calls fail this way".
// It only decides which fault (if any) applies to a call; the store itself carries the fault out.
import { FaultRules, type FaultRule } from "./fault-rules.js";

/** Operations a fault rule can target. */
export type MetadataFaultOp = "get" | "getMany" | "scan" | "txn";

/**
 * How a matched call fails:
 * - `fail-before-apply`: throws `NereusError(METADATA_UNAVAILABLE)` with `details.ambiguous === false`; nothing applied.
 * - `apply-then-lose-response`: the operation runs (a txn applies, or not if its compares fail), then the response is
 *   lost: a txn throws `MetadataAmbiguousError`; a read throws non-ambiguous `METADATA_UNAVAILABLE` (reads change
 *   nothing, so there is nothing to be ambiguous about).
 * - `hang-until-aborted`: the call never answers and applies nothing. When its signal aborts, a read throws
 *   `CANCELLED`; a txn throws `MetadataAmbiguousError` (a real store could have applied a sent txn). `close()`
 *   rejects hung calls with `STORAGE_CLOSED`.
 */
export type MetadataFaultMode = "fail-before-apply" | "apply-then-lose-response" | "hang-until-aborted";

/** One fault rule. Rules are matched in insertion order; the first match is consumed. */
export interface MetadataFaultRule extends FaultRule<MetadataFaultMode> {
  readonly op: MetadataFaultOp;
  /** Narrows the rule. `request` is the key (get), the keys (getMany), the prefix (scan) or the `TxnRequest` (txn). */
  readonly when?: (request: unknown) => boolean;
}

/** The fault rules of one store. Invariant: a rule fires at most `times` times, on calls it matches, in order. */
export class MetadataFaults extends FaultRules<MetadataFaultMode, MetadataFaultRule> {
  /**
   * Consumes the first rule matching `op` and `request` and returns its mode, or `undefined` when none matches.
   * Called by the store once per call, after argument validation.
   */
  take(op: MetadataFaultOp, request: unknown): MetadataFaultMode | undefined {
    return this.takeFirst((rule) => rule.op === op && (rule.when === undefined || rule.when(request)));
  }
}
