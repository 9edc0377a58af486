// The operations the fault scenarios break at every durable step: each starts from a small prepared stream (20
// entries, cursor "sub" at 0) and names the step that makes it durable — the first one for operations that write
// an intent first (protected create/recreate/reset, trim), the last one for a single root CAS (which a snapshot
// object put may precede). A crash before that step must leave the state before, a crash at or after it the state
// after (the next owner completes a pending intent); a lost response must leave the state after.
import type { CursorHandle } from "../cursor/cursor-handle.js";
import type { CursorLimits } from "../store/cursor-store-options.js";
import type { CursorStore } from "../stream/cursor-store.js";
import type { StreamCursors } from "../stream/stream-cursors.js";
import { acking } from "./conformance-run.js";
import type { DurableStep } from "./simulated-process.js";

const TXN: DurableStep = "metadata txn";
const ONE_CAS: readonly DurableStep[] = [TXN];
/** Intent, cursor root, intent done. */
const PROTECTED: readonly DurableStep[] = [TXN, TXN, TXN];
const SNAPSHOT_AND_CAS: readonly DurableStep[] = ["object put", TXN];

/** Entries of every fault case's stream. */
export const FAULT_CASE_ENTRIES = 20;

/** What a case's setup and operation work with: one process's cursor store and its open stream. */
export interface FaultCaseContext {
  readonly store: CursorStore;
  readonly cursors: StreamCursors;
  readonly streamId: string;
}

export interface FaultCase {
  readonly name: string;
  readonly limits?: Partial<CursorLimits>;
  /** Brings the stream (cursor "sub" at 0 exists) into the case's starting state; runs without faults. */
  readonly setup?: (context: FaultCaseContext) => Promise<unknown>;
  /** The operation under test. */
  readonly run: (context: FaultCaseContext) => Promise<unknown>;
  /** The durable steps the operation takes, in order (the suite checks them). */
  readonly steps: readonly DurableStep[];
  /** The durable step that decides the outcome: the first (an intent) or the last (the root CAS). */
  readonly commitsAt: "first" | "last";
}

function sub(context: FaultCaseContext): CursorHandle {
  const handle = context.cursors.get("sub");
  if (handle === undefined) throw new Error("fault case without cursor sub");
  return handle;
}

/** Spills on the fifth inline item. */
const SNAPSHOT_LIMITS: Partial<CursorLimits> = { minInlineItems: 4, maxInlineItems: 4 };

export const FAULT_CASES: readonly FaultCase[] = [
  {
    name: "writable open (owner claim, retention claim)",
    setup: (context) => sub(context).cumulativeAck(4),
    run: (context) => context.store.openStream(context.streamId),
    steps: [TXN, TXN],
    commitsAt: "last",
  },
  {
    name: "create (PROTECTION_PENDING)",
    run: (context) => context.cursors.createCursor("new", { initialOffset: 5 }),
    steps: PROTECTED,
    commitsAt: "first",
  },
  {
    name: "recreate (PROTECTION_PENDING)",
    setup: (context) => context.cursors.deleteCursor("sub"),
    run: (context) => context.cursors.createCursor("sub", { initialOffset: 2 }),
    steps: PROTECTED,
    commitsAt: "first",
  },
  {
    name: "delete",
    setup: (context) => sub(context).individualAck([{ offset: 3 }]),
    run: (context) => context.cursors.deleteCursor("sub"),
    steps: ONE_CAS,
    commitsAt: "last",
  },
  {
    name: "backward reset (PROTECTION_PENDING)",
    setup: async (context) => {
      await sub(context).cumulativeAck(9);
      await sub(context).individualAck([{ offset: 12 }]);
    },
    run: (context) => context.cursors.resetCursor("sub", 3),
    steps: PROTECTED,
    commitsAt: "first",
  },
  {
    name: "backward reset with a partial (PROTECTION_PENDING)",
    setup: (context) => sub(context).cumulativeAck(9),
    run: (context) => context.cursors.resetCursor("sub", 3, { partial: acking(0, 1) }),
    steps: PROTECTED,
    commitsAt: "first",
  },
  {
    name: "forward reset",
    setup: (context) => sub(context).individualAck([{ offset: 12 }, { offset: 17 }]),
    run: (context) => context.cursors.resetCursor("sub", 15),
    steps: ONE_CAS,
    commitsAt: "last",
  },
  {
    name: "clear backlog",
    setup: (context) => sub(context).individualAck([{ offset: 12 }]),
    run: (context) => sub(context).clearBacklog(FAULT_CASE_ENTRIES),
    steps: ONE_CAS,
    commitsAt: "last",
  },
  {
    name: "cumulative ack",
    setup: (context) => sub(context).individualAck([{ offset: 9 }]),
    run: (context) => sub(context).cumulativeAck(7),
    steps: ONE_CAS,
    commitsAt: "last",
  },
  {
    name: "cumulative partial ack",
    run: (context) => sub(context).cumulativeAck(7, { partial: acking(1, 3) }),
    steps: ONE_CAS,
    commitsAt: "last",
  },
  {
    name: "individual acks",
    setup: (context) => sub(context).individualAck([{ offset: 4 }]),
    run: (context) => sub(context).individualAck([{ offset: 3 }, { offset: 5 }, { offset: 11 }]),
    steps: ONE_CAS,
    commitsAt: "last",
  },
  {
    name: "partial individual ack",
    setup: (context) => sub(context).individualAck([{ offset: 4, batch: acking(0) }]),
    run: (context) =>
      sub(context).individualAck([
        { offset: 4, batch: acking(2) },
        { offset: 6, batch: acking(3) },
      ]),
    steps: ONE_CAS,
    commitsAt: "last",
  },
  {
    name: "skip",
    setup: (context) => sub(context).individualAck([{ offset: 2 }]),
    run: (context) => sub(context).skip(3, { committedEnd: FAULT_CASE_ENTRIES }),
    steps: ONE_CAS,
    commitsAt: "last",
  },
  {
    name: "property replacement",
    run: (context) => sub(context).replaceProperties(new Map([["k", "v"]])),
    steps: ONE_CAS,
    commitsAt: "last",
  },
  {
    name: "ack that publishes a snapshot (object put, root CAS)",
    limits: SNAPSHOT_LIMITS,
    setup: (context) => sub(context).individualAck([1, 3, 5, 7].map((offset) => ({ offset }))),
    run: (context) => sub(context).individualAck([{ offset: 9 }]),
    steps: SNAPSHOT_AND_CAS,
    commitsAt: "last",
  },
  {
    name: "ack over a snapshot that publishes the next one",
    limits: SNAPSHOT_LIMITS,
    setup: async (context) => {
      await sub(context).individualAck([1, 3, 5, 7, 9].map((offset) => ({ offset })));
      await sub(context).individualAck([11, 13, 15].map((offset) => ({ offset })));
    },
    run: (context) => sub(context).individualAck([{ offset: 17 }, { offset: 19 }, { offset: 0 }]),
    steps: SNAPSHOT_AND_CAS,
    commitsAt: "last",
  },
  {
    name: "floor raise",
    setup: (context) => sub(context).cumulativeAck(9),
    run: (context) => context.cursors.raiseFloor(),
    steps: ONE_CAS,
    commitsAt: "last",
  },
  {
    name: "trim (TRIM_PENDING, stream trim)",
    setup: async (context) => {
      await sub(context).cumulativeAck(9);
      await context.cursors.raiseFloor();
    },
    run: (context) => context.cursors.trim(6, "fault case"),
    steps: [TXN, "stream trim", TXN],
    commitsAt: "first",
  },
];
