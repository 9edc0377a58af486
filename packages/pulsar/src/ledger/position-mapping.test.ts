import { ErrorCode } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ledgerRefusalOf } from "./ledger-errors.js";
import {
  EARLIEST_POSITION,
  LATEST_POSITION,
  comparePositions,
  messageIdOfPosition,
  positionOfMessageId,
} from "./position.js";
import { type LedgerBounds, PositionMapping } from "./position-mapping.js";
import { thrownError } from "../../test/thrown-error.js";

const LEDGER = 2n ** 62n + 9n;
const mapping = new PositionMapping(LEDGER, "persistent://public/default/t");

/** Bounds (trim <= end) and an offset anywhere around them. */
const boundsAndOffset = fc
  .tuple(fc.nat({ max: 1_000_000 }), fc.nat({ max: 1_000_000 }), fc.integer({ min: -1, max: 2_100_000 }))
  .map(([trim, length, offset]) => ({ bounds: { trimOffset: trim, committedEndOffset: trim + length }, offset }));

describe("PositionMapping", () => {
  test("offset → position → offset is the identity, and positions order as offsets do", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: -1, max: Number.MAX_SAFE_INTEGER }),
        (left, right) => {
          const position = mapping.positionOf(left);
          expect(position.ledgerId).toBe(LEDGER);
          expect(mapping.resolve(position)).toEqual({ kind: "entry", entryId: left });
          expect(Math.sign(comparePositions(position, mapping.positionOf(right)))).toBe(Math.sign(left - right));
        },
      ),
    );
  });

  test("wire ids: unsigned 64-bit MessageId fields round-trip through signed positions (-1 as 2^64-1)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        (ledgerId, entryId) => {
          const wire = messageIdOfPosition({ ledgerId, entryId });
          expect(wire.ledgerId >= 0n && wire.ledgerId < 2n ** 64n).toBe(true);
          expect(positionOfMessageId(wire)).toEqual({ ledgerId, entryId });
        },
      ),
    );
    expect(positionOfMessageId({ ledgerId: 2n ** 64n - 1n, entryId: 2n ** 64n - 1n })).toEqual(EARLIEST_POSITION);
    expect(mapping.resolve(positionOfMessageId(messageIdOfPosition(LATEST_POSITION)))).toEqual({ kind: "latest" });
  });

  test("every role keeps its rule against the ledger bounds", () => {
    fc.assert(
      fc.property(boundsAndOffset, ({ bounds, offset }) => {
        const { trimOffset: trim, committedEndOffset: end } = bounds;
        const position = mapping.positionOf(offset);
        if (offset >= trim && offset < end) expect(mapping.readableOffset(position, bounds)).toBe(offset);
        else {
          const code = offset < trim ? ErrorCode.OFFSET_TRIMMED : ErrorCode.OFFSET_NOT_AVAILABLE;
          thrownError(() => mapping.readableOffset(position, bounds), code);
        }
        if (offset >= trim && offset <= end) expect(mapping.nextReadOffset(position, bounds)).toBe(offset);
        if (offset < end) expect(mapping.markDeleteOffset(position, bounds)).toBe(Math.max(offset + 1, trim));
        else thrownError(() => mapping.markDeleteOffset(position, bounds), ErrorCode.OFFSET_NOT_AVAILABLE);
        const clamp = (value: number): number => Math.min(Math.max(value, trim), end);
        expect(mapping.startAfterOffset(position, bounds)).toBe(clamp(offset + 1));
        expect(mapping.seekOffset(position, bounds)).toBe(clamp(offset));
        expect(mapping.readLimitOffset(position, bounds)).toBe(clamp(offset + 1));
      }),
    );
  });

  test("entryId - 1 arithmetic is tolerated: the entry before the first is a valid mark-delete and start position", () => {
    const bounds: LedgerBounds = { trimOffset: 5, committedEndOffset: 9 };
    const beforeFirst = mapping.beforeFirst(bounds);
    expect(beforeFirst).toEqual({ ledgerId: LEDGER, entryId: 4n });
    expect(mapping.markDeleteOffset(beforeFirst, bounds)).toBe(5);
    expect(mapping.startAfterOffset(beforeFirst, bounds)).toBe(5);
    expect(mapping.lastConfirmed(bounds)).toEqual({ ledgerId: LEDGER, entryId: 8n });
    expect(mapping.lastConfirmed({ trimOffset: 0, committedEndOffset: 0 })).toEqual({ ledgerId: LEDGER, entryId: -1n });
    expect(mapping.markDeleteOffset({ ledgerId: LEDGER, entryId: -1n }, { trimOffset: 0, committedEndOffset: 3 })).toBe(
      0,
    );
  });

  test("sentinels: earliest is the trim, latest the end; they are never entries", () => {
    const bounds: LedgerBounds = { trimOffset: 3, committedEndOffset: 10 };
    for (const role of ["startAfterOffset", "seekOffset", "readLimitOffset"] as const) {
      expect(mapping[role](EARLIEST_POSITION, bounds)).toBe(3);
      expect(mapping[role](LATEST_POSITION, bounds)).toBe(10);
    }
    for (const sentinel of [EARLIEST_POSITION, LATEST_POSITION]) {
      expect(
        ledgerRefusalOf(thrownError(() => mapping.readableOffset(sentinel, bounds), ErrorCode.INVALID_ARGUMENT)),
      ).toBe("POSITION_OUT_OF_RANGE");
      thrownError(() => mapping.markDeleteOffset(sentinel, bounds), ErrorCode.INVALID_ARGUMENT);
    }
  });

  test("a position of any other ledger id fails cleanly in every role", () => {
    const bounds: LedgerBounds = { trimOffset: 0, committedEndOffset: 100 };
    fc.assert(
      fc.property(
        fc
          .bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
          .filter((id) => id !== LEDGER && id !== -1n && id !== 2n ** 63n - 1n),
        fc.bigInt({ min: -1n, max: 99n }),
        (ledgerId, entryId) => {
          for (const role of [
            "readableOffset",
            "nextReadOffset",
            "markDeleteOffset",
            "startAfterOffset",
            "seekOffset",
          ] as const) {
            const error = thrownError(() => mapping[role]({ ledgerId, entryId }, bounds), ErrorCode.INVALID_ARGUMENT);
            expect(ledgerRefusalOf(error)).toBe("LEDGER_MISMATCH");
          }
        },
      ),
    );
  });

  test("entry ids below -1 or beyond 2^53-1 are refused", () => {
    const bounds: LedgerBounds = { trimOffset: 0, committedEndOffset: 100 };
    for (const entryId of [-2n, 2n ** 53n, 2n ** 63n - 1n]) {
      const error = thrownError(
        () => mapping.seekOffset({ ledgerId: LEDGER, entryId }, bounds),
        ErrorCode.INVALID_ARGUMENT,
      );
      expect(ledgerRefusalOf(error)).toBe("POSITION_OUT_OF_RANGE");
    }
  });
});
