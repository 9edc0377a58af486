// The FIFO lane of one cursor: every durable mutation of the cursor runs through it, one unit at a time, in the
// order it was submitted. Batchable items (acks) that wait behind the unit in flight are taken together, up to a
// weight limit, and handed to one batch commit (group commit); exclusive units run alone. The lane only
// schedules: what a batch or a unit does, and what each item resolves with, belongs to the caller.

/** How one item of a batch ended. */
export type Settlement<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: unknown };

interface BatchableTask<A, R> {
  readonly kind: "batchable";
  readonly item: A;
  readonly weight: number;
  readonly resolve: (value: R) => void;
  readonly reject: (error: unknown) => void;
}

interface ExclusiveTask {
  readonly kind: "exclusive";
  readonly run: () => Promise<void>;
}

type LaneTask<A, R> = BatchableTask<A, R> | ExclusiveTask;

/**
 * Commits one batch: `items` in submission order. Resolves one settlement per item, in the same order. A rejection
 * settles every item of the batch with that error.
 */
type BatchCommit<A, R> = (items: readonly A[]) => Promise<readonly Settlement<R>[]>;

/**
 * A per-cursor FIFO lane with group commit.
 * Invariants: units run one at a time in submission order; a batch holds only consecutive batchable items (an
 * exclusive unit is never overtaken, nor overtakes); a batch weighs at most `maxBatchWeight` unless its first item
 * alone weighs more; work submitted in the same tick as the lane wakes up joins the same batch.
 */
export class CursorLane<A, R> {
  readonly #commit: BatchCommit<A, R>;
  readonly #maxBatchWeight: number;
  #queue: LaneTask<A, R>[] = [];
  #head = 0;
  #running = false;
  #idleWaiters: (() => void)[] = [];

  constructor(commit: BatchCommit<A, R>, maxBatchWeight: number) {
    this.#commit = commit;
    this.#maxBatchWeight = maxBatchWeight;
  }

  /** Queues a batchable item; resolves with its settlement once the batch that carried it ended. */
  submitBatchable(item: A, weight: number): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#push({ kind: "batchable", item, weight, resolve, reject });
    });
  }

  /** Queues `run` to run alone once every unit before it ended; settles like `run`. */
  submitExclusive<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#push({ kind: "exclusive", run: () => run().then(resolve, reject) });
    });
  }

  /** Units waiting or running. */
  get pending(): number {
    return this.#queue.length - this.#head + (this.#running ? 1 : 0);
  }

  /** Resolves once the lane has nothing queued or running. */
  whenIdle(): Promise<void> {
    if (!this.#running && this.#head === this.#queue.length) return Promise.resolve();
    return new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
  }

  #push(task: LaneTask<A, R>): void {
    this.#queue.push(task);
    if (this.#running) return;
    this.#running = true;
    // Started a tick later, so work submitted in the same tick lands in one batch.
    queueMicrotask(() => void this.#drain());
  }

  async #drain(): Promise<void> {
    for (;;) {
      const task = this.#queue[this.#head];
      if (task === undefined) break;
      if (task.kind === "exclusive") {
        this.#advance(1);
        await task.run();
      } else {
        await this.#runBatch(this.#takeBatch());
      }
    }
    this.#queue = [];
    this.#head = 0;
    this.#running = false;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  #takeBatch(): BatchableTask<A, R>[] {
    const batch: BatchableTask<A, R>[] = [];
    let weight = 0;
    for (;;) {
      const task = this.#queue[this.#head];
      if (task === undefined || task.kind !== "batchable") break;
      if (batch.length > 0 && weight + task.weight > this.#maxBatchWeight) break;
      batch.push(task);
      weight += task.weight;
      this.#advance(1);
    }
    return batch;
  }

  async #runBatch(batch: readonly BatchableTask<A, R>[]): Promise<void> {
    let settlements: readonly Settlement<R>[];
    try {
      settlements = await this.#commit(batch.map((task) => task.item));
    } catch (error) {
      for (const task of batch) task.reject(error);
      return;
    }
    batch.forEach((task, index) => {
      const settlement = settlements[index];
      if (settlement === undefined) task.reject(new Error("batch commit returned no settlement for an item"));
      else if (settlement.ok) task.resolve(settlement.value);
      else task.reject(settlement.error);
    });
  }

  #advance(count: number): void {
    this.#head += count;
    // Drop consumed slots now and then so a long-lived busy lane does not keep them.
    if (this.#head >= 1024 && this.#head * 2 >= this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }
}
