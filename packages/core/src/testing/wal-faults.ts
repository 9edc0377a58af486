// Fault rules of the in-memory WAL provider: an ordered list of "the next N matching calls fail this way". It only
// decides which fault applies to a call; the provider carries it out.

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
export type WalFaultMode = "fail-before-persist" | "persist-then-lose-response" | "corrupt-stored-bytes" | "hang-until-aborted";

export interface WalFaultRule {
  readonly op: WalFaultOp;
  readonly mode: WalFaultMode;
  /** How many matching calls fail (default 1; `Infinity` for every call). */
  readonly times?: number;
  /** Narrows the rule to calls of one stream. */
  readonly streamId?: string;
}

interface ArmedRule {
  readonly rule: WalFaultRule;
  remaining: number;
}

/** The armed rules of one provider. Invariant: a rule fires at most `times` times, in insertion order. */
export class WalFaults {
  readonly #rules: ArmedRule[] = [];

  add(rule: WalFaultRule): void {
    const times = rule.times ?? 1;
    if (!(times === Number.POSITIVE_INFINITY || (Number.isSafeInteger(times) && times >= 1))) {
      throw new TypeError(`fault rule times must be a positive integer or Infinity, got ${String(rule.times)}`);
    }
    this.#rules.push({ rule, remaining: times });
  }

  clear(): void {
    this.#rules.length = 0;
  }

  get size(): number {
    return this.#rules.length;
  }

  /** Consumes the first rule matching the call and returns its mode. */
  take(op: WalFaultOp, streamId: string | undefined): WalFaultMode | undefined {
    for (let index = 0; index < this.#rules.length; index++) {
      const armed = this.#rules[index];
      if (armed === undefined || armed.rule.op !== op) continue;
      if (armed.rule.streamId !== undefined && armed.rule.streamId !== streamId) continue;
      armed.remaining -= 1;
      if (armed.remaining <= 0) this.#rules.splice(index, 1);
      return armed.rule.mode;
    }
    return undefined;
  }
}
