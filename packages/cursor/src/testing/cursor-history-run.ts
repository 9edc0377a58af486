// Runs one cursor history against a fixture and its model, side by side: a fresh stream, one cursor, and each
// command applied to both. After every command the cursor's markDelete, first unacked entry, backlog and the ack
// state of every entry below the committed end must equal the model's, and the stored records must keep the
// retention invariant; a restart or owner change must resume at the first unacked entry, and the replaced
// owner's next write must fail CURSOR_FENCED. Any disagreement throws (no test framework needed).
import { randomBytes } from "node:crypto";
import { ErrorCode, NereusError } from "@nereus/core";
import { FaultInjectingMetadataStore, opaqueBatch } from "@nereus/core/testing";
import { remainingOf } from "../ack-state/ack-queries.js";
import { type BatchBits, ackedBatchIndexes, batchBitsAcking } from "../ack-state/batch-bits.js";
import type { CursorHandle } from "../cursor/cursor-handle.js";
import type { CursorLimits } from "../store/cursor-store-options.js";
import { CursorStore } from "../stream/cursor-store.js";
import type { StreamCursors } from "../stream/stream-cursors.js";
import type { CursorConformanceFixture, CursorStoreClients } from "./cursor-conformance-fixture.js";
import type { AckedIndexes, HistoryCommand } from "./cursor-history-commands.js";
import { CursorModel, historyBatchSize } from "./cursor-history-model.js";
import { retentionInvariantProblem } from "./retention-invariant.js";

/** Entries of every history's stream before its first command. */
const INITIAL_ENTRIES = 16;

/** Small inline limits, so histories spill into snapshots and hydrate them again. */
const HISTORY_LIMITS: Partial<CursorLimits> = { minInlineItems: 2, maxInlineItems: 6 };

/** What the histories run so far did (for reports). */
export class HistoryStats {
  histories = 0;
  commands = 0;
  restarts = 0;
  ownerChanges = 0;
  lostResponses = 0;
  snapshotsWritten = 0;
}

/** One process: its clients (owned ones are closed with it), its cursor store and the open stream. */
interface HistoryProcess {
  readonly clients: CursorStoreClients;
  readonly ownsClients: boolean;
  readonly faulty: FaultInjectingMetadataStore;
  readonly store: CursorStore;
  readonly cursors: StreamCursors;
  /** True once this process took the stream's append session. */
  producing: boolean;
}

class HistoryMismatch extends Error {}

/** Runs `commands` on a fresh stream of `fixture`; throws on the first disagreement with the model. */
export async function runCursorHistory(
  fixture: CursorConformanceFixture,
  commands: readonly HistoryCommand[],
  stats: HistoryStats = new HistoryStats(),
): Promise<void> {
  const name = `cursor-history-${randomBytes(6).toString("hex")}`;
  const { streamId } = await fixture.streams.createStream(name, {
    profile: fixture.streamProfile ?? "BOOKKEEPER_WAL_ONLY",
  });
  await appendEntries(fixture, streamId, INITIAL_ENTRIES);
  const history = new History(fixture, streamId, stats);
  try {
    await history.start();
    for (const [index, command] of commands.entries()) {
      try {
        await history.apply(command);
        await history.check();
      } catch (error) {
        throw new HistoryMismatch(`history step ${String(index)} ${JSON.stringify(command)}: ${describe(error)}`, {
          cause: error,
        });
      }
      stats.commands += 1;
    }
    stats.histories += 1;
  } finally {
    await history.close();
  }
}

class History {
  readonly #fixture: CursorConformanceFixture;
  readonly #streamId: string;
  readonly #stats: HistoryStats;
  readonly #model = new CursorModel(0, INITIAL_ENTRIES);
  #process: HistoryProcess | undefined;
  #handle: CursorHandle | undefined;

  constructor(fixture: CursorConformanceFixture, streamId: string, stats: HistoryStats) {
    this.#fixture = fixture;
    this.#streamId = streamId;
    this.#stats = stats;
  }

  async start(): Promise<void> {
    this.#process = await this.#openProcess(this.#fixture, false);
    this.#handle = await this.#process.cursors.createCursor("sub", { initialOffset: 0 });
    await this.check();
  }

  async apply(command: HistoryCommand): Promise<void> {
    const process = this.#current();
    if ("lose" in command && command.lose) {
      process.faulty.faults.add({ op: "txn", mode: "apply-then-lose-response" });
      this.#stats.lostResponses += 1;
    }
    try {
      await this.#run(command);
    } finally {
      process.faulty.faults.clear();
    }
  }

  /** Compares the cursor with the model and checks the stored retention invariant. */
  async check(): Promise<void> {
    const handle = this.#cursor();
    const model = this.#model;
    const end = model.committedEnd;
    expectEqual("markDelete", handle.markDeleteOffset, model.markDelete);
    expectEqual("firstUnacked", handle.firstUnacked(), model.markDelete);
    expectEqual("backlog", handle.backlog(end), model.backlog(end));
    for (let offset = model.markDelete; offset < end; offset++) {
      expectEqual(`whole ack of ${String(offset)}`, handle.isAcked(offset), model.isWhole(offset));
      const remaining = remainingOf(handle.state.view, offset);
      const acked = remaining === undefined || handle.isAcked(offset) ? [] : ackedBatchIndexes(remaining);
      const expected = model.isWhole(offset) ? [] : [...(model.acked.get(offset) ?? [])].sort((a, b) => a - b);
      expectEqual(`acked batch indexes of ${String(offset)}`, acked.join(","), expected.join(","));
    }
    const problem = await retentionInvariantProblem(this.#fixture, this.#fixture.cluster, this.#streamId);
    if (problem !== undefined) throw new HistoryMismatch(`retention invariant: ${problem}`);
  }

  async close(): Promise<void> {
    const process = this.#process;
    this.#process = undefined;
    if (process !== undefined) await closeProcess(process, this.#stats);
  }

  async #run(command: HistoryCommand): Promise<void> {
    const handle = this.#cursor();
    const model = this.#model;
    const end = model.committedEnd;
    switch (command.kind) {
      case "individual": {
        const items = command.items.map((item) => ackItem(item.at % end, item.indexes));
        let changed = false;
        for (const item of items) changed = model.ackEntry(item.offset, item.indexes) || changed;
        model.fold();
        const result = await handle.individualAck(items.map(({ offset, batch }) => ({ offset, batch })));
        expectEqual("alreadyApplied", result.alreadyApplied, !changed);
        return;
      }
      case "cumulative": {
        const { offset, indexes, batch } = ackItem(command.at % end, command.indexes);
        const changed = cumulativeOnModel(model, offset, indexes);
        const result = await handle.cumulativeAck(offset, batch === undefined ? {} : { partial: batch });
        expectEqual("alreadyApplied", result.alreadyApplied, !changed);
        return;
      }
      case "skip": {
        const before = model.markDelete;
        if (before < end) model.markDelete = model.afterUnacked(command.count, end);
        model.fold();
        const result = await handle.skip(command.count, { committedEnd: end });
        expectEqual("alreadyApplied", result.alreadyApplied, model.markDelete === before);
        return;
      }
      case "reset":
        await this.#reset(command.beyondEnd ? end + 1 + (command.at % 5) : command.at % end, command.indexes);
        return;
      case "clear":
        model.reset(Math.max(end, model.markDelete));
        await handle.clearBacklog(end);
        return;
      case "append":
        await this.#append(command.count);
        model.committedEnd += command.count;
        return;
      case "trim":
        await this.#trim();
        return;
      case "restart":
        await this.#restart();
        return;
      case "owner-change":
        await this.#changeOwner();
        return;
    }
  }

  async #reset(target: number, indexes: AckedIndexes): Promise<void> {
    const model = this.#model;
    const resolved = Math.min(target, model.committedEnd);
    const item = resolved < model.committedEnd && indexes !== undefined ? ackItem(resolved, indexes) : undefined;
    const cursors = this.#current().cursors;
    const reset = cursors.resetCursor("sub", target, item?.batch === undefined ? {} : { partial: item.batch });
    if (target < model.trimOffset) {
      await expectFailure(reset, ErrorCode.OFFSET_TRIMMED);
      return;
    }
    model.reset(resolved);
    if (item !== undefined) model.ackEntry(resolved, item.indexes);
    model.fold();
    await reset;
  }

  /** Appends through the current process (which owns the cursors and produces, as a broker does). */
  async #append(count: number): Promise<void> {
    const process = this.#current();
    if (!process.producing) {
      await process.clients.streams.acquireSession(this.#streamId, { preempt: true });
      process.producing = true;
    }
    await appendEntries(process.clients, this.#streamId, count);
  }

  async #trim(): Promise<void> {
    const model = this.#model;
    const cursors = this.#current().cursors;
    const raised = await cursors.raiseFloor();
    expectEqual("protected floor after a raise", raised.protectedFloorOffset, model.markDelete);
    if (model.markDelete > model.trimOffset) {
      await cursors.trim(model.markDelete, "cursor history");
      model.trimOffset = model.markDelete;
    }
    const head = await this.#fixture.streams.getHead(this.#streamId);
    expectEqual("stream trim", head.trimOffset, model.trimOffset);
  }

  async #restart(): Promise<void> {
    await this.close();
    this.#process = await this.#openProcess(await this.#fixture.reopen(), true);
    this.#resumed();
    this.#stats.restarts += 1;
  }

  async #changeOwner(): Promise<void> {
    const previous = this.#current();
    const stale = this.#cursor();
    this.#process = await this.#openProcess(await this.#fixture.reopen(), true);
    try {
      await expectFailure(stale.replaceProperties(new Map([["fenced", "no"]])), ErrorCode.CURSOR_FENCED);
    } finally {
      await closeProcess(previous, this.#stats);
    }
    this.#resumed();
    this.#stats.ownerChanges += 1;
  }

  /** Takes the new process's handle; it must start dispatching at the first unacked entry. */
  #resumed(): void {
    const handle = this.#current().cursors.get("sub");
    if (handle === undefined) throw new HistoryMismatch("cursor sub is not ACTIVE after reopening");
    this.#handle = handle;
    expectEqual("read position after reopening", handle.readPosition, this.#model.markDelete);
  }

  async #openProcess(clients: CursorStoreClients, ownsClients: boolean): Promise<HistoryProcess> {
    const faulty = new FaultInjectingMetadataStore(clients.metadata);
    const store = new CursorStore({
      metadata: faulty,
      objects: clients.objects,
      streams: clients.streams,
      cluster: this.#fixture.cluster,
      limits: HISTORY_LIMITS,
    });
    try {
      const cursors = await store.openStream(this.#streamId);
      return { clients, ownsClients, faulty, store, cursors, producing: !ownsClients };
    } catch (error) {
      if (ownsClients) await clients.close();
      throw error;
    }
  }

  #current(): HistoryProcess {
    if (this.#process === undefined) throw new Error("history without an open process");
    return this.#process;
  }

  #cursor(): CursorHandle {
    if (this.#handle === undefined) throw new Error("history without a cursor");
    return this.#handle;
  }
}

/** The model's view of an ack of `offset` (indexes filtered to the entry's batch) and the bits to send. */
function ackItem(
  offset: number,
  indexes: AckedIndexes,
): { readonly offset: number; readonly indexes: AckedIndexes; readonly batch: BatchBits | undefined } {
  if (indexes === undefined) return { offset, indexes: undefined, batch: undefined };
  const size = historyBatchSize(offset);
  const valid = indexes.filter((index) => index < size);
  return { offset, indexes: valid, batch: batchBitsAcking(size, valid) };
}

/** A cumulative ack through `offset` (with `indexes`: below it, plus those indexes of it) on the model. */
function cumulativeOnModel(model: CursorModel, offset: number, indexes: AckedIndexes): boolean {
  if (offset < model.markDelete) return false;
  let changed: boolean;
  if (indexes === undefined) {
    model.markDelete = offset + 1;
    changed = true;
  } else {
    changed = offset > model.markDelete;
    model.markDelete = offset;
    changed = model.ackEntry(offset, indexes) || changed;
  }
  model.fold();
  return changed;
}

async function appendEntries(clients: CursorStoreClients, streamId: string, count: number): Promise<void> {
  await clients.streams.append(streamId, opaqueBatch(...Array.from({ length: count }, () => "entry")));
}

async function closeProcess(process: HistoryProcess, stats: HistoryStats): Promise<void> {
  stats.snapshotsWritten += process.store.counters.snapshotsWritten;
  await process.store.close();
  if (process.ownsClients) await process.clients.close();
}

function expectEqual<T>(what: string, actual: T, expected: T): void {
  if (actual !== expected) {
    throw new HistoryMismatch(`${what}: expected ${String(expected)}, got ${String(actual)}`);
  }
}

async function expectFailure(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  try {
    await promise;
  } catch (error) {
    if (NereusError.hasCode(error, code)) return;
    throw error;
  }
  throw new HistoryMismatch(`expected ${code}, but the operation succeeded`);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
