// Fault rules for the in-memory MetadataStore: a small, ordered list of "the next N matching calls fail this way".
// It only decides which fault (if any) applies to a call; the store itself carries the fault out.

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
export interface MetadataFaultRule {
  readonly op: MetadataFaultOp;
  readonly mode: MetadataFaultMode;
  /** How many matching calls fail (default 1; `Infinity` for every call). The rule is removed when used up. */
  readonly times?: number;
  /** Narrows the rule. `request` is the key (get), the keys (getMany), the prefix (scan) or the `TxnRequest` (txn). */
  readonly when?: (request: unknown) => boolean;
}

interface ArmedRule {
  readonly rule: MetadataFaultRule;
  remaining: number;
}

/** The fault rules of one store. Invariant: a rule fires at most `times` times, on calls it matches, in order. */
export class MetadataFaults {
  readonly #rules: ArmedRule[] = [];

  /** Arms a rule. Throws `TypeError` on a `times` that is not a positive integer or `Infinity`. */
  add(rule: MetadataFaultRule): void {
    const times = rule.times ?? 1;
    if (!(times === Number.POSITIVE_INFINITY || (Number.isSafeInteger(times) && times >= 1))) {
      throw new TypeError(`fault rule times must be a positive integer or Infinity, got ${String(rule.times)}`);
    }
    this.#rules.push({ rule, remaining: times });
  }

  /** Removes every rule. */
  clear(): void {
    this.#rules.length = 0;
  }

  /** Number of armed rules (used-up rules are removed). */
  get size(): number {
    return this.#rules.length;
  }

  /**
   * Consumes the first rule matching `op` and `request` and returns its mode, or `undefined` when none matches.
   * Called by the store once per call, after argument validation.
   */
  take(op: MetadataFaultOp, request: unknown): MetadataFaultMode | undefined {
    for (let index = 0; index < this.#rules.length; index++) {
      const armed = this.#rules[index];
      if (armed === undefined || armed.rule.op !== op) continue;
      if (armed.rule.when !== undefined && !armed.rule.when(request)) continue;
      armed.remaining -= 1;
      if (armed.remaining <= 0) this.#rules.splice(index, 1);
      return armed.rule.mode;
    }
    return undefined;
  }
}
