// An ordered list of armed fault rules ("the next N matching calls fail this way"), shared by the fault injection
// of the in-memory providers. It only decides which rule (if any) a call consumes; what a call is, how a rule
// matches it and how the fault is carried out belong to the provider (metadata-faults.ts, wal-faults.ts).

/** What every fault rule has: the mode a matched call fails with, and how many calls it matches. */
export interface FaultRule<Mode extends string> {
  readonly mode: Mode;
  /** How many matching calls fail (default 1; `Infinity` for every call). The rule is removed when used up. */
  readonly times?: number;
}

interface ArmedRule<Rule> {
  readonly rule: Rule;
  remaining: number;
}

/** The armed rules of one provider. Invariant: a rule fires at most `times` times, on calls it matches, in order. */
export class FaultRules<Mode extends string, Rule extends FaultRule<Mode>> {
  readonly #rules: ArmedRule<Rule>[] = [];

  /** Arms a rule. Throws `TypeError` on a `times` that is not a positive integer or `Infinity`. */
  add(rule: Rule): void {
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

  /** Consumes the first rule that `matches` and returns its mode, or `undefined` when none matches. */
  protected takeFirst(matches: (rule: Rule) => boolean): Mode | undefined {
    for (let index = 0; index < this.#rules.length; index++) {
      const armed = this.#rules[index];
      if (armed === undefined || !matches(armed.rule)) continue;
      armed.remaining -= 1;
      if (armed.remaining <= 0) this.#rules.splice(index, 1);
      return armed.rule.mode;
    }
    return undefined;
  }
}
