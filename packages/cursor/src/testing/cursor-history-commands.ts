// The commands of a cursor history and their generator: acks of every kind (whole, partial, cumulative), skips,
// resets forward and backward, clear backlog, appends, trims, restarts and owner changes. Offsets are drawn as
// raw numbers and mapped onto the committed entries when the command runs, so every history stays meaningful as
// the stream grows and fast-check can shrink freely. `lose` loses the response of the command's first metadata
// transaction (it applied).
import fc from "fast-check";

/** Batch indexes acked by a partial ack (undefined: the whole entry). */
export type AckedIndexes = readonly number[] | undefined;

export type HistoryCommand =
  | {
      readonly kind: "individual";
      readonly items: readonly { readonly at: number; readonly indexes: AckedIndexes }[];
      readonly lose: boolean;
    }
  | { readonly kind: "cumulative"; readonly at: number; readonly indexes: AckedIndexes; readonly lose: boolean }
  | { readonly kind: "skip"; readonly count: number; readonly lose: boolean }
  | {
      readonly kind: "reset";
      readonly at: number;
      readonly beyondEnd: boolean;
      readonly indexes: AckedIndexes;
      readonly lose: boolean;
    }
  | { readonly kind: "clear"; readonly lose: boolean }
  | { readonly kind: "append"; readonly count: number }
  | { readonly kind: "trim" }
  | { readonly kind: "restart" }
  | { readonly kind: "owner-change" };

const at = fc.nat({ max: 1_000 });
/** One command in four loses a response. */
const lose = fc.nat({ max: 3 }).map((value) => value === 0);
/** Mostly a few low indexes (partials survive several acks), sometimes many (they complete). */
const indexes: fc.Arbitrary<AckedIndexes> = fc.option(
  fc.oneof(
    { arbitrary: fc.array(fc.nat({ max: 7 }), { maxLength: 3 }), weight: 3 },
    { arbitrary: fc.array(fc.nat({ max: 69 }), { maxLength: 80 }), weight: 1 },
  ),
  { nil: undefined, freq: 2 },
);

const command: fc.Arbitrary<HistoryCommand> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant("individual" as const),
      items: fc.array(fc.record({ at, indexes }), { minLength: 1, maxLength: 8 }),
      lose,
    }),
    weight: 8,
  },
  { arbitrary: fc.record({ kind: fc.constant("cumulative" as const), at, indexes, lose }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant("skip" as const), count: fc.integer({ min: 1, max: 6 }), lose }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant("reset" as const), at, beyondEnd: fc.boolean(), indexes, lose }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant("clear" as const), lose }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("append" as const), count: fc.integer({ min: 1, max: 12 }) }), weight: 2 },
  { arbitrary: fc.constant({ kind: "trim" as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: "restart" as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: "owner-change" as const }), weight: 1 },
);

/** Histories of up to `maxCommands` commands (lengths spread over the whole range, most above a handful). */
export function historyArbitrary(maxCommands: number): fc.Arbitrary<HistoryCommand[]> {
  return fc.array(command, { minLength: Math.min(5, maxCommands), maxLength: maxCommands, size: "max" });
}
