// Internal stats in the shape of Pulsar's PersistentTopicInternalStats: the one virtual ledger of the topic's
// incarnation (entries, size, last confirmed entry, state) and each cursor's mark-delete position, first
// unacknowledged entry and acknowledgement holes. Positions print as `ledgerId:entryId`.
import type { CursorHandle } from "@nereus/cursor";
import type { ManagedLedgerState } from "../ledger/ledger-entries.js";
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import { formatPosition } from "../ledger/position.js";
import type { TopicName } from "../topics/topic-name.js";
import type { AdminContext } from "./admin-context.js";
import { type AdminResponse, notFound, ok } from "./admin-exchange.js";
import { ackRangesOf, storageSizeOf } from "./topic-stats.js";

/** Most acknowledgement holes listed in a cursor's `individuallyDeletedMessages` (the count is always exact). */
const MAX_LISTED_RANGES = 1000;

const LEDGER_STATES: Readonly<Record<ManagedLedgerState, string>> = {
  OPEN: "LedgerOpened",
  WRITE_FENCED: "Fenced",
  TERMINATING: "Terminated",
  TERMINATED: "Terminated",
  FAILED: "Fenced",
  CLOSED: "Closed",
};

/** GET .../internalStats of a non-partitioned topic or one partition. */
export async function internalStats(
  context: AdminContext,
  name: TopicName,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  if ((await context.topics.partitioned(name, signal)) !== undefined) {
    throw notFound(`Topic ${name.fullName} is a partitioned topic: ask one of its partitions`);
  }
  const ledger = await context.topics.ledger(name, signal);
  const opened = await context.topics.opened(name);
  const size = storageSizeOf(ledger);
  const cursors: Record<string, unknown> = {};
  for (const cursor of ledger.cursors.list()) {
    cursors[cursor.name] = cursorStats(ledger, cursor, (opened.get(cursor.name)?.consumers().length ?? 0) > 0);
  }
  const { trimOffset, committedEndOffset } = ledger.bounds();
  return ok({
    entriesAddedCounter: committedEndOffset,
    numberOfEntries: ledger.numberOfEntries(),
    totalSize: size,
    currentLedgerEntries: ledger.numberOfEntries(),
    currentLedgerSize: size,
    lastLedgerCreatedTimestamp: new Date(ledger.topic.createdAtMillis).toISOString(),
    waitingCursorsCount: 0,
    pendingAddEntriesCount: 0,
    lastConfirmedEntry: formatPosition(ledger.lastConfirmedEntry()),
    state: LEDGER_STATES[ledger.state],
    ledgers: [
      {
        ledgerId: ledger.ledgerId,
        entries: committedEndOffset - trimOffset,
        size,
        offloaded: false,
        underReplicated: false,
      },
    ],
    cursors,
  });
}

function cursorStats(ledger: ManagedLedger, cursor: CursorHandle, active: boolean): Record<string, unknown> {
  const ranges = ackRangesOf(cursor);
  const listed = ranges
    .slice(0, MAX_LISTED_RANGES)
    .map(({ start, end }) => `(${position(ledger, start - 1)}..${position(ledger, end - 1)}]`);
  const firstUnacked = cursor.firstUnacked();
  const end = ledger.bounds().committedEndOffset;
  return {
    markDeletePosition: position(ledger, cursor.markDeleteOffset - 1),
    readPosition: position(ledger, firstUnacked),
    waitingReadOp: false,
    pendingReadOps: 0,
    messagesConsumedCounter: 0,
    cursorLedger: -1,
    cursorLedgerLastEntry: -1,
    individuallyDeletedMessages: `[${listed.join(",")}]`,
    lastLedgerSwitchTimestamp: "",
    state: "Open",
    active,
    numberOfEntriesSinceFirstNotAckedMessage: Math.max(0, end - firstUnacked),
    totalNonContiguousDeletedMessagesRange: ranges.length,
    subscriptionHavePendingRead: false,
    subscriptionHavePendingReplayRead: false,
    properties: Object.fromEntries(cursor.positionProperties),
  };
}

function position(ledger: ManagedLedger, offset: number): string {
  return formatPosition(ledger.positions.positionOf(offset));
}
