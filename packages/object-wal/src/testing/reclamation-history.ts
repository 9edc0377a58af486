// The randomized history checker of storage reclamation: one seeded history of appends to several streams (sharing
// multi-stream WAL objects), trims, materializations (level-1 generations and merges), reads left in flight across
// trims and collection steps, restarts of the broker, and collection runs that crash at a random step (a new
// collector takes over), run as another process (no shared read pins), lose DELETE responses, fail DELETEs and lose
// transaction responses. After every collection run it reads every committed offset at or above each stream's trim
// offset through a fresh reader (no cache) and compares it byte for byte with what was acknowledged; a read left in
// flight must end with exactly the acknowledged bytes or a clean OFFSET_TRIMMED. At the end every stream is trimmed
// to its end and collected until quiet: no object, root, protection or journal entry may be left, and each stream
// keeps only its head and materialization state. Any deviation throws, naming the seed and the step.
import {
  ErrorCode,
  MetadataAmbiguousError,
  NereusError,
  ReadPins,
  createStreamStore,
  type MetadataStore,
  type ObjectStore,
  type ReadResult,
  type StorageProfileName,
  type StreamStore,
  type TxnRequest,
} from "@nereus/core";
import { clusterPrefix } from "@nereus/core/internal";
import { ObjectWalReader } from "../reader/object-wal-reader.js";
import type { ReclamationHooks, ReclamationPolicy } from "../reclamation/reclamation-context.js";
import { StreamReclaimer, type ReclamationRunReport } from "../reclamation/stream-reclaimer.js";
import { ObjectWalStack, opaque, type ObjectWalProcess } from "./object-wal-stack.js";

const decoder = new TextDecoder();
const WRITER = "broker-1";

export interface ReclamationHistoryOptions {
  readonly seed: number;
  /** Operations of the history (default 60). */
  readonly steps?: number;
  /** Streams written (default 3). */
  readonly streams?: number;
  /** Cluster name (default: derived from the seed, plus a random suffix). */
  readonly cluster?: string;
}

/** What histories exercised (accumulated over every history given the same tally). */
export class ReclamationHistoryTally {
  histories = 0;
  steps = 0;
  appends = 0;
  trims = 0;
  materializations = 0;
  collectionRuns = 0;
  crashedRuns = 0;
  foreignRuns = 0;
  lostDeleteResponses = 0;
  failedDeletes = 0;
  lostTxnResponses = 0;
  brokerRestarts = 0;
  readsInFlight = 0;
  /** Reads in flight that ended OFFSET_TRIMMED (a trim passed their position and their bytes were collected). */
  readsInFlightTrimmed = 0;
  /** Reads in flight that returned fewer entries than asked for, ending where a trim had freed the rest. */
  readsInFlightShortened = 0;
  offsetsChecked = 0;
  objectsFreed = 0;
  bytesFreed = 0;
}

/** A crash of the collector, injected through its hooks. */
class InjectedCrash extends Error {}

/** Runs one history over `stores` (which it does not close); throws on the first deviation. */
export async function runReclamationHistory(
  stores: { readonly metadata: MetadataStore; readonly objectStore: ObjectStore },
  options: ReclamationHistoryOptions,
  tally = new ReclamationHistoryTally(),
): Promise<ReclamationHistoryTally> {
  const history = new History(stores, options, tally);
  try {
    await history.run();
  } catch (error) {
    throw new Error(`reclamation history seed ${String(options.seed)} failed at step ${String(history.step)}`, {
      cause: error,
    });
  } finally {
    await history.dispose();
  }
  tally.histories += 1;
  return tally;
}

class History {
  readonly stack: ObjectWalStack;
  readonly tally: ReclamationHistoryTally;
  readonly random: () => number;
  readonly steps: number;
  readonly policy: ReclamationPolicy;
  /** Acknowledged payload of every offset, per stream. */
  readonly model = new Map<string, string[]>();
  readonly streams: string[] = [];
  readonly streamCount: number;
  now = 1_700_000_000_000;
  step = 0;
  process: ObjectWalProcess;

  constructor(
    stores: { readonly metadata: MetadataStore; readonly objectStore: ObjectStore },
    options: ReclamationHistoryOptions,
    tally: ReclamationHistoryTally,
  ) {
    this.random = seededRandom(options.seed);
    this.tally = tally;
    this.steps = options.steps ?? 60;
    this.streamCount = options.streams ?? 3;
    this.stack = new ObjectWalStack(
      stores.metadata,
      stores.objectStore,
      options.cluster ?? `reclaim-${String(options.seed)}-${Math.random().toString(36).slice(2, 8)}`,
    );
    this.policy = {
      graceMs: this.pick([0, 1_000]),
      clockSkewMs: 0,
      minObjectAgeMs: this.pick([0, 500]),
      tombstoneRetentionMs: this.pick([0, 2_000]),
    };
    this.process = this.openProcess();
  }

  async run(): Promise<void> {
    const profiles: StorageProfileName[] = ["OBJECT_WAL_SYNC_OBJECT", "OBJECT_WAL_ASYNC_OBJECT"];
    for (let index = 0; index < this.streamCount; index++) {
      const { streamId } = await this.process.store.createStream(`history-${String(index)}`, {
        profile: this.pick(profiles),
      });
      this.streams.push(streamId);
      this.model.set(streamId, []);
    }
    for (this.step = 0; this.step < this.steps; this.step++) {
      this.tally.steps += 1;
      const roll = this.random();
      if (roll < 0.35) await this.append();
      else if (roll < 0.47) await this.trim(this.pick(this.streams));
      else if (roll < 0.57) await this.materialize();
      else if (roll < 0.8) await this.collect(this.pick(this.streams), { faults: true });
      else if (roll < 0.9) await this.readInFlight();
      else if (roll < 0.97) this.tick();
      else await this.restart();
    }
    await this.quiesce();
  }

  async dispose(): Promise<void> {
    await this.stack.dispose();
  }

  openProcess(): ObjectWalProcess {
    return this.stack.open({
      writerId: WRITER,
      runtime: {
        clock: () => this.now,
        flush: { lingerMs: 3 },
        materialization: { enabled: false },
        reclamation: { policy: this.policy },
      },
    });
  }

  async append(): Promise<void> {
    const count = 1 + Math.floor(this.random() * this.streams.length);
    const chosen = this.shuffled(this.streams).slice(0, count);
    await Promise.all(
      chosen.map(async (streamId) => {
        const model = this.model.get(streamId) as string[];
        const texts = Array.from({ length: 1 + Math.floor(this.random() * 3) }, (_, index) => {
          return `${streamId.slice(2, 8)}:${String(this.step)}:${String(index)}:${"x".repeat(Math.floor(this.random() * 64))}`;
        });
        const result = await this.process.store.append(streamId, opaque(...texts));
        texts.forEach((text, index) => {
          model[result.startOffset + index] = text;
        });
        this.tally.appends += 1;
      }),
    );
  }

  async trim(streamId: string, to?: number): Promise<void> {
    const head = await this.stack.head(streamId);
    const target = to ?? head.trimOffset + Math.floor(this.random() * (head.committedEndOffset - head.trimOffset + 1));
    if (target <= head.trimOffset) return;
    await this.process.store.trim(streamId, target);
    this.tally.trims += 1;
  }

  async materialize(): Promise<void> {
    const worker = this.stack.worker({
      clock: () => this.now,
      policy: { minLevelOneBytes: 0, minMergeSources: 2, maxMergeSources: 4, maxSources: 3 },
    });
    try {
      await worker.runStream(this.pick(this.streams));
    } finally {
      await worker.close();
    }
    this.tally.materializations += 1;
  }

  /** One collection run of `streamId` by a new collector (faults armed at random), then the full check. */
  async collect(
    streamId: string,
    options: { readonly faults: boolean; readonly foreign?: boolean; readonly check?: boolean },
  ): Promise<void> {
    const foreign = options.foreign ?? (options.faults && this.random() < 0.2);
    let crashAt = options.faults && this.random() < 0.3 ? 1 + Math.floor(this.random() * 6) : 0;
    if (options.faults) this.armStoreFaults();
    const crash = (): void => {
      if (crashAt > 0 && --crashAt === 0) throw new InjectedCrash("collector crashed (injected)");
    };
    const hooks: ReclamationHooks = { afterRelease: crash, afterStep: crash, afterObjectDelete: crash };
    const reclaimer = new StreamReclaimer({
      metadata: this.stack.metadata,
      objectStore: this.stack.objects,
      cluster: this.stack.cluster,
      writerId: WRITER,
      readPins: foreign ? new ReadPins() : this.process.runtime.readPins,
      clock: () => this.now,
      policy: this.policy,
      hooks,
    });
    const report = await reclaimer.runStream(streamId);
    await reclaimer.close();
    this.tally.collectionRuns += 1;
    if (foreign) this.tally.foreignRuns += 1;
    this.tally.objectsFreed += report.objectsDeleted;
    this.tally.bytesFreed += report.bytesFreed;
    this.expectInjectedOnly(report);
    if (options.check !== false) await this.checkAll();
  }

  armStoreFaults(): void {
    const roll = this.random();
    if (roll < 0.15) {
      this.stack.objects.loseNextDeleteResponses(1);
      this.tally.lostDeleteResponses += 1;
    } else if (roll < 0.25) {
      this.stack.objects.failNextDeletes(1);
      this.tally.failedDeletes += 1;
    }
    if (this.random() < 0.15) {
      this.stack.metadata.loseResponseOf(isReclamationTxn, 1);
      this.tally.lostTxnResponses += 1;
    }
  }

  expectInjectedOnly(report: ReclamationRunReport): void {
    const error = report.error;
    if (error === undefined) return;
    if (error instanceof InjectedCrash) {
      this.tally.crashedRuns += 1;
      return;
    }
    if (error instanceof MetadataAmbiguousError) return;
    if (NereusError.is(error) && error.details["injected"] === true) return;
    throw new Error(`collection run of ${report.streamId} failed`, { cause: error });
  }

  /**
   * A read that resolved its target and waits for the bytes while the stream is trimmed and collected; it must end
   * with the acknowledged bytes (possibly fewer entries) or OFFSET_TRIMMED past a trim that moved beyond it.
   */
  async readInFlight(): Promise<void> {
    const streamId = this.pick(this.streams);
    const head = await this.stack.head(streamId);
    if (head.committedEndOffset === head.trimOffset) return;
    const offset = head.trimOffset + Math.floor(this.random() * (head.committedEndOffset - head.trimOffset));
    const maxRecords = 1 + Math.floor(this.random() * 8);
    const resume = this.stack.objects.pauseGets();
    let settled = false;
    const reading = this.process.store
      .read(streamId, offset, { maxRecords })
      .then(
        (result) => ({ result, error: undefined }),
        (error: unknown) => ({ result: undefined, error }),
      )
      .finally(() => {
        settled = true;
      });
    for (let spin = 0; spin < 200 && !settled && this.stack.objects.pendingGets === 0; spin++) await nextTurn();
    try {
      await this.trim(streamId);
      await this.collect(streamId, { faults: false, foreign: false, check: false });
    } finally {
      resume();
    }
    const { result, error } = await reading;
    this.tally.readsInFlight += 1;
    if (error !== undefined) {
      const trimOffset = (await this.stack.head(streamId)).trimOffset;
      if (!NereusError.hasCode(error, ErrorCode.OFFSET_TRIMMED) || trimOffset <= offset)
        throw new Error(`read in flight of ${streamId} at ${String(offset)} failed`, { cause: error });
      this.tally.readsInFlightTrimmed += 1;
      return;
    }
    const read = result as ReadResult;
    this.expectAcknowledged(streamId, read, offset);
    const asked = Math.min(maxRecords, head.committedEndOffset - offset);
    if (read.nextOffset - offset < asked) this.tally.readsInFlightShortened += 1;
  }

  tick(): void {
    this.now += Math.floor(this.random() * 1_500);
  }

  async restart(): Promise<void> {
    await this.process.store.close();
    await this.process.runtime.close();
    this.process = this.openProcess();
    this.tally.brokerRestarts += 1;
  }

  /** Trims everything, collects until quiet, and checks that nothing but heads and states is left. */
  async quiesce(): Promise<void> {
    for (const streamId of this.streams)
      await this.trim(streamId, (await this.stack.head(streamId)).committedEndOffset);
    for (let round = 0; round < 6; round++) {
      this.now += this.policy.graceMs + this.policy.minObjectAgeMs + this.policy.tombstoneRetentionMs + 1;
      for (const streamId of this.streams) await this.collect(streamId, { faults: false, foreign: false });
    }
    const objects = await this.stack.objects.inner.list("", { limit: 1_000 });
    const prefix = clusterPrefix(this.stack.cluster);
    const mine = objects.items.filter((item) => item.key.includes(this.stack.cluster));
    if (mine.length > 0) throw new Error(`objects left after full trim: ${mine.map((item) => item.key).join(", ")}`);
    const physical = await this.stack.metadata.scan(`${prefix}/physical-objects/`, { limit: 10 });
    if (physical.items.length > 0) throw new Error(`physical roots or protections left: ${physical.items[0]?.key}`);
    for (const streamId of this.streams) {
      const keys = await this.stack.metadata.scan(`${prefix}/streams/${streamId}/`, { limit: 100 });
      const extra = keys.items
        .map((item) => item.key.slice(prefix.length + streamId.length + 10))
        .filter((rest) => rest !== "head" && rest !== "materialization/v1/state");
      if (extra.length > 0) throw new Error(`stream ${streamId} keeps ${extra.join(", ")} after full trim`);
    }
  }

  /** Reads every committed offset at or above each trim offset through a fresh reader and compares it. */
  async checkAll(): Promise<void> {
    const checker = createStreamStore({
      metadata: this.stack.metadata,
      cluster: this.stack.cluster,
      writerId: "checker",
      walWriters: [],
      walReaders: [new ObjectWalReader({ objectStore: this.stack.objects, cacheBytes: 0 })],
      completionCoordinators: [],
    });
    try {
      for (const streamId of this.streams) await this.checkStream(checker, streamId);
    } finally {
      await checker.close();
    }
  }

  async checkStream(checker: StreamStore, streamId: string): Promise<void> {
    const head = await this.stack.head(streamId);
    let offset = head.trimOffset;
    while (offset < head.committedEndOffset) {
      const result = await checker.read(streamId, offset, { maxRecords: 64 });
      this.expectAcknowledged(streamId, result, offset);
      if (result.nextOffset <= offset) throw new Error(`read of ${streamId} at ${String(offset)} made no progress`);
      this.tally.offsetsChecked += result.nextOffset - offset;
      offset = result.nextOffset;
    }
  }

  expectAcknowledged(streamId: string, result: ReadResult, from: number): void {
    const model = this.model.get(streamId) as string[];
    let expected = from;
    for (const entry of result.entries) {
      const text = decoder.decode(entry.payload);
      if (entry.offset !== expected || entry.recordCount !== 1 || model[entry.offset] !== text) {
        throw new Error(
          `stream ${streamId} offset ${String(entry.offset)}: read ${JSON.stringify(text)}, acknowledged ${JSON.stringify(model[entry.offset])}`,
        );
      }
      expected += 1;
    }
    if (result.nextOffset !== expected) throw new Error(`stream ${streamId}: nextOffset ${String(result.nextOffset)}`);
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  shuffled<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let index = copy.length - 1; index > 0; index--) {
      const other = Math.floor(this.random() * (index + 1));
      [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
    }
    return copy;
  }
}

/** Deletes only a collector sends (appends and the materialization worker never delete these records). */
const COLLECTED_RECORD = /\/(commit-log|committed-appends|offset-index|generation-index|protections)\//;

/** A transaction of the collector: it writes journal entries, or deletes records below the trim or protections. */
function isReclamationTxn(request: TxnRequest): boolean {
  return request.writes.some(
    (write) => write.key.includes("/reclamation/v1/") || (write.type === "delete" && COLLECTED_RECORD.test(write.key)),
  );
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** mulberry32: a small seeded generator (histories replay exactly from their seed). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
