// The ack-state algebra against a plain model (a set of whole-acked offsets and a map of acked batch indexes) over
// random sequences of cumulative, partial and individual acks, resets, skips and spills.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ackBaseFromSnapshot } from "./ack-base.js";
import { backlog, firstUnacked, isBatchIndexAcked, isWholeAcked, nextUnacked, remainingOf } from "./ack-queries.js";
import { type AckMutation, type AckView, emptyAckView } from "./ack-view.js";
import { ackedBatchIndexes, batchBitsAcking, type BatchBits } from "./batch-bits.js";
import { cumulativeAck, cumulativePartialAck } from "./cumulative-ack.js";
import { individualAcks, type IndividualAck } from "./individual-acks.js";
import { inlineInvariantViolation } from "./inline-invariants.js";
import { resetTo } from "./reset-to.js";
import { skipEntries } from "./skip-entries.js";
import { snapshotContentOf, spill } from "./spill.js";

const SPAN = 40;
const WINDOW = 48;
const BATCH_SIZES = [1, 2, 3, 5, 8, 64, 65, 70];

/** Every entry has one batch size, as in a real stream. */
const batchSizeOf = (offset: number): number => BATCH_SIZES[offset % BATCH_SIZES.length]!;

class Model {
  markDelete = 0;
  readonly whole = new Set<number>();
  readonly acked = new Map<number, Set<number>>();

  isWhole(offset: number): boolean {
    return offset < this.markDelete || this.whole.has(offset);
  }

  /** Acks the given batch indexes (undefined: the whole entry); true when anything changed. */
  ackEntry(offset: number, indexes: readonly number[] | undefined): boolean {
    if (this.isWhole(offset)) return false;
    if (indexes === undefined) return this.markWhole(offset);
    const acked = this.acked.get(offset) ?? new Set<number>();
    const before = acked.size;
    for (const index of indexes) acked.add(index);
    if (acked.size === batchSizeOf(offset)) return this.markWhole(offset);
    if (acked.size > 0) this.acked.set(offset, acked);
    return acked.size > before;
  }

  fold(): void {
    while (this.whole.has(this.markDelete)) this.markDelete++;
    for (const offset of this.whole) if (offset < this.markDelete) this.whole.delete(offset);
    for (const offset of this.acked.keys()) if (offset < this.markDelete) this.acked.delete(offset);
  }

  backlog(end: number): number {
    let count = 0;
    for (let offset = this.markDelete; offset < end; offset++) if (!this.isWhole(offset)) count++;
    return count;
  }

  private markWhole(offset: number): boolean {
    this.whole.add(offset);
    this.acked.delete(offset);
    return true;
  }
}

type Command =
  | { readonly kind: "cumulative"; readonly offset: number }
  | { readonly kind: "cumulativePartial"; readonly offset: number; readonly indexes: number[]; readonly pad: boolean }
  | { readonly kind: "individual"; readonly items: { offset: number; indexes: number[] | undefined }[] }
  | { readonly kind: "reset"; readonly target: number; readonly indexes: number[] | undefined }
  | { readonly kind: "skip"; readonly count: number; readonly countAcked: boolean; readonly end: number }
  | { readonly kind: "spill" };

const offsetArbitrary = fc.integer({ min: 0, max: SPAN - 1 });
/** Mostly a few indexes (so partials survive several acks), sometimes many (so they complete). */
const indexesArbitrary = fc.oneof(
  { arbitrary: fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 3 }), weight: 3 },
  { arbitrary: fc.array(fc.integer({ min: 0, max: 69 }), { maxLength: 80 }), weight: 1 },
);

const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("cumulative" as const), offset: offsetArbitrary }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("cumulativePartial" as const),
      offset: offsetArbitrary,
      indexes: indexesArbitrary,
      pad: fc.boolean(),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("individual" as const),
      items: fc.array(
        fc.record({ offset: offsetArbitrary, indexes: fc.option(indexesArbitrary, { nil: undefined }) }),
        { maxLength: 12 },
      ),
    }),
    weight: 6,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("reset" as const),
      target: offsetArbitrary,
      indexes: fc.option(indexesArbitrary, { nil: undefined }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("skip" as const),
      count: fc.integer({ min: 0, max: 20 }),
      countAcked: fc.boolean(),
      end: fc.integer({ min: SPAN / 2, max: WINDOW }),
    }),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: "spill" as const }), weight: 2 },
);

/** The batch indexes of `indexes` that exist in entry `offset`. */
const validIndexes = (offset: number, indexes: readonly number[]): number[] =>
  indexes.filter((index) => index < batchSizeOf(offset));

function bitsOf(offset: number, indexes: readonly number[], pad = false): BatchBits {
  const bits = batchBitsAcking(batchSizeOf(offset), validIndexes(offset, indexes));
  return pad ? { batchSize: bits.batchSize, remaining: [...bits.remaining, 0n, 0n] } : bits;
}

/** Runs one command on both; returns the algebra's result and whether the model changed. */
function run(view: AckView, model: Model, command: Command): { result: AckMutation; changed: boolean | undefined } {
  switch (command.kind) {
    case "cumulative": {
      const changed = command.offset >= model.markDelete;
      if (changed) model.markDelete = command.offset + 1;
      model.fold();
      return { result: cumulativeAck(view, command.offset), changed };
    }
    case "cumulativePartial": {
      const { offset } = command;
      let changed = false;
      if (offset >= model.markDelete) {
        changed = offset > model.markDelete;
        model.markDelete = offset;
        changed = model.ackEntry(offset, validIndexes(offset, command.indexes)) || changed;
        model.fold();
      }
      return { result: cumulativePartialAck(view, offset, bitsOf(offset, command.indexes, command.pad)), changed };
    }
    case "individual": {
      let changed = false;
      for (const item of command.items) {
        const indexes = item.indexes && validIndexes(item.offset, item.indexes);
        changed = model.ackEntry(item.offset, indexes) || changed;
      }
      model.fold();
      const items: IndividualAck[] = command.items.map((item) =>
        item.indexes === undefined
          ? { offset: item.offset }
          : { offset: item.offset, batch: bitsOf(item.offset, item.indexes) },
      );
      return { result: individualAcks(view, items), changed };
    }
    case "reset": {
      const { target } = command;
      model.markDelete = target;
      model.whole.clear();
      model.acked.clear();
      if (command.indexes !== undefined) model.ackEntry(target, validIndexes(target, command.indexes));
      model.fold();
      const bits = command.indexes === undefined ? undefined : bitsOf(target, command.indexes);
      return { result: resetTo(view, target, bits), changed: undefined };
    }
    case "skip": {
      const before = model.markDelete;
      if (command.count > 0 && before < command.end) {
        model.markDelete = command.countAcked
          ? Math.min(before + command.count, command.end)
          : afterUnacked(model, command.count, command.end);
        model.fold();
      }
      const result = skipEntries(view, command.count, {
        countIndividuallyAcked: command.countAcked,
        committedEnd: command.end,
      });
      return { result, changed: model.markDelete !== before };
    }
    case "spill": {
      const content = snapshotContentOf(spill(view), IDENTITY);
      const base = ackBaseFromSnapshot(content);
      return {
        result: {
          view: { markDeleteOffset: base.baseMarkDeleteOffset, base, inlineRanges: [], inlinePartials: [] },
          applied: false,
        },
        changed: false,
      };
    }
  }
}

function afterUnacked(model: Model, count: number, end: number): number {
  let remaining = count;
  for (let offset = model.markDelete; offset < end; offset++) {
    if (!model.isWhole(offset) && --remaining === 0) return offset + 1;
  }
  return end;
}

const IDENTITY = {
  snapshotId: "0".repeat(32),
  streamId: "s",
  cursorNameHash: "1".repeat(32),
  cursorGeneration: 1,
  sourceMutationSequence: 2,
  createdAtMillis: 3,
};

/** Everything the checks compare, read from the view. */
function observe(view: AckView): unknown {
  return {
    markDelete: view.markDeleteOffset,
    firstUnacked: firstUnacked(view),
    backlogs: BACKLOG_ENDS(view.markDeleteOffset).map((end) => backlog(view, end)),
    offsets: OFFSETS.map((offset) => {
      const remaining = remainingOf(view, offset);
      return {
        whole: isWholeAcked(view, offset),
        remaining: remaining === undefined ? undefined : ackedBatchIndexes(remaining),
        indexes: INDEXES(offset).map((index) => isBatchIndexAcked(view, offset, index)),
        next: nextUnacked(view, offset),
      };
    }),
  };
}

/** The same, from the model. */
function expected(model: Model): unknown {
  return {
    markDelete: model.markDelete,
    firstUnacked: model.markDelete,
    backlogs: BACKLOG_ENDS(model.markDelete).map((end) => model.backlog(end)),
    offsets: OFFSETS.map((offset) => {
      const whole = model.isWhole(offset);
      const acked = model.acked.get(offset);
      let next = offset;
      while (model.isWhole(next)) next++;
      return {
        whole,
        remaining: acked === undefined ? undefined : [...acked].sort((a, b) => a - b),
        indexes: INDEXES(offset).map((index) => whole || (acked?.has(index) ?? false)),
        next,
      };
    }),
  };
}

const OFFSETS = Array.from({ length: WINDOW }, (_, offset) => offset);
const INDEXES = (offset: number): number[] => Array.from({ length: batchSizeOf(offset) }, (_, index) => index);
const BACKLOG_ENDS = (markDelete: number): number[] => [markDelete - 1, ...OFFSETS, WINDOW];

/** The parts of a view a mutation must leave alone, as plain data. */
const frozenCopy = (view: AckView): unknown =>
  JSON.parse(JSON.stringify(view, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)));

describe("ack-state algebra against a model", () => {
  it("agrees with the model after every step of random command sequences", () => {
    fc.assert(
      fc.property(fc.array(commandArbitrary, { maxLength: 40 }), (commands) => {
        let view = emptyAckView(0);
        const model = new Model();
        for (const command of commands) {
          const before = frozenCopy(view);
          const { result, changed } = run(view, model, command);
          expect(frozenCopy(view)).toEqual(before);
          if (changed !== undefined && command.kind !== "spill") expect(result.applied).toBe(changed);
          view = result.view;
          expect(inlineInvariantViolation(view)).toBeUndefined();
          expect(observe(view)).toEqual(expected(model));
        }
      }),
      { numRuns: 200 },
    );
  });
});
