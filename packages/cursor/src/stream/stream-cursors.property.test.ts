// Random runs of stream-level operations (appends, create/recreate, delete, acks, forward and backward resets,
// floor raises, trims, reopen by a new process): the retention invariant holds after every step, refused
// operations fail only with the codes their preconditions explain, and a reopen sees the same cursors.
import { ErrorCode, NereusError } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StreamCursors } from "./stream-cursors.js";
import { type StreamFixture, streamFixture } from "./test-fixtures/stream-fixture.js";
import { memoryStreamProviders } from "../../test/memory-stream-providers.js";

const providers = memoryStreamProviders;

const NAMES = ["a", "b", "c"] as const;
const name = fc.constantFrom(...NAMES);
/** A fraction in [0, 1) that picks an offset inside whatever half-open range the step finds. */
const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

const operation = fc.oneof(
  fc.record({ kind: fc.constant("append" as const), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    kind: fc.constant("create" as const),
    name,
    at: fc.oneof(fc.constantFrom("earliest" as const, "latest" as const), fraction),
  }),
  fc.record({ kind: fc.constant("delete" as const), name }),
  fc.record({ kind: fc.constant("ack" as const), name, at: fraction }),
  fc.record({ kind: fc.constant("reset" as const), name, at: fraction }),
  fc.record({ kind: fc.constant("raise" as const) }),
  fc.record({ kind: fc.constant("trim" as const), at: fraction }),
  fc.record({ kind: fc.constant("reopen" as const) }),
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

/** Codes an operation may be refused with in these runs (their preconditions are not tracked by the test). */
const EXPECTED_REFUSALS: ReadonlySet<string> = new Set([
  ErrorCode.CURSOR_ALREADY_EXISTS,
  ErrorCode.CURSOR_NOT_FOUND,
  ErrorCode.OFFSET_TRIMMED,
]);

const pick = (low: number, high: number, at: number): number => low + Math.floor((high - low) * at);

describe("StreamCursors under random operation runs", () => {
  it("keeps trim <= lastCompleted <= floor <= markDelete <= end after every step (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 30 }), async (operations) => {
        const fixture = await streamFixture(providers, 5);
        let cursors = await fixture.open();
        for (const step of operations) {
          cursors = await apply(step, cursors, fixture);
          await fixture.expectRetentionInvariant();
        }
        const reopened = await fixture.open();
        expect(summaryOf(reopened)).toEqual(summaryOf(cursors));
      }),
      { numRuns: 40 },
    );
  });
});

async function apply(step: Operation, cursors: StreamCursors, fixture: StreamFixture): Promise<StreamCursors> {
  if (step.kind === "reopen") return fixture.open();
  try {
    await run(step, cursors, fixture);
  } catch (error) {
    if (!NereusError.is(error) || !EXPECTED_REFUSALS.has(error.code)) throw error;
  }
  return cursors;
}

async function run(
  step: Exclude<Operation, { kind: "reopen" }>,
  cursors: StreamCursors,
  fixture: StreamFixture,
): Promise<void> {
  const head = await fixture.head();
  const retention = cursors.retention();
  switch (step.kind) {
    case "append":
      await fixture.append(step.count);
      return;
    case "create": {
      const at = step.at;
      const initialOffset = typeof at === "number" ? pick(head.trimOffset, head.committedEndOffset, at) : at;
      await cursors.createCursor(step.name, { initialOffset });
      return;
    }
    case "delete":
      await cursors.deleteCursor(step.name);
      return;
    case "ack": {
      const handle = cursors.get(step.name);
      if (handle === undefined || handle.markDeleteOffset >= head.committedEndOffset) return;
      await handle.cumulativeAck(pick(handle.markDeleteOffset, head.committedEndOffset, step.at));
      return;
    }
    case "reset":
      await cursors.resetCursor(step.name, pick(head.trimOffset, head.committedEndOffset + 1, step.at));
      return;
    case "raise":
      await cursors.raiseFloor();
      return;
    case "trim":
      await cursors.trim(pick(retention.lastCompletedTrimOffset, retention.protectedFloorOffset + 1, step.at), "run");
      return;
  }
}

/** What a reopen must see again: every ACTIVE cursor's name, generation, epoch and markDelete, and the record. */
function summaryOf(cursors: StreamCursors): unknown {
  const { protectedFloorOffset, lastCompletedTrimOffset } = cursors.retention();
  return {
    protectedFloorOffset,
    lastCompletedTrimOffset,
    cursors: cursors
      .list()
      .map((handle) => [handle.name, handle.generation, handle.ackStateEpoch, handle.markDeleteOffset]),
  };
}
