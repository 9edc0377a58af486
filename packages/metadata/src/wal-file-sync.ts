// Durability of the SQLite store's commits, off the event loop. SQLite runs with synchronous=NORMAL in WAL mode: a
// COMMIT appends its frames to the `-wal` file without fsync (fast, and a process crash loses nothing: the frames
// are in the OS page cache). This module makes them survive an OS crash or power loss: `request()` returns a
// datasync of the `-wal` file that starts after every write made so far (fdatasync flushes the inode, whichever
// descriptor wrote it), coalescing concurrent requests into as few syncs as possible — group commit for fsync.
// A failed sync poisons the file for good (after a failed fsync the kernel may have dropped the dirty pages).
import { type FileHandle, open } from "node:fs/promises";

/** Test seam: runs before each sync; a throw fails the sync as an I/O error would. */
export type BeforeWalSync = () => Promise<void> | void;

/** What the store needs of its durability policy (WalFileSync, or BufferedWal for os-buffered durability). */
export interface WalDurability {
  readonly failure: unknown;
  readonly syncs: number;
  /** The datasync in progress, if any (settles when it ends, whatever its outcome). */
  readonly running: Promise<void> | undefined;
  request(): Promise<void>;
  barrier(): Promise<void>;
  close(): Promise<void>;
}

/**
 * No datasync at all: commits are released as soon as SQLite applied them (they survive a crash of this process,
 * not of the OS or the machine — what Apache Kafka does by default).
 */
export class BufferedWal implements WalDurability {
  readonly failure: unknown = undefined;
  readonly syncs = 0;
  readonly running: Promise<void> | undefined = undefined;

  request(): Promise<void> {
    return Promise.resolve();
  }

  barrier(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {}
}

/**
 * Invariants: a promise from `request()` resolves only after a datasync that started after the call; `barrier()`
 * resolves once every write made before it is durable; after one failure every later call rejects with it.
 */
export class WalFileSync implements WalDurability {
  readonly #handle: FileHandle;
  readonly #beforeSync: BeforeWalSync | undefined;
  #running: Promise<void> | undefined;
  #queued: Promise<void> | undefined;
  #latest: Promise<void> = Promise.resolve();
  #failure: unknown;
  /** Datasyncs performed (for tests and metrics). */
  syncs = 0;

  private constructor(handle: FileHandle, beforeSync: BeforeWalSync | undefined) {
    this.#handle = handle;
    this.#beforeSync = beforeSync;
  }

  /** Opens the `-wal` file of a database in WAL mode (it must exist: open it after the first write). */
  static async open(walPath: string, beforeSync?: BeforeWalSync): Promise<WalFileSync> {
    return new WalFileSync(await open(walPath, "r"), beforeSync);
  }

  /** The error of the sync that failed, if any (the file is unusable from then on). */
  get failure(): unknown {
    return this.#failure;
  }

  /** The datasync in progress, if any. */
  get running(): Promise<void> | undefined {
    return this.#running;
  }

  /** A sync covering every write made before this call. */
  request(): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    // A queued sync has not started yet, so it covers this caller too.
    if (this.#queued !== undefined) return this.#queued;
    const running = this.#running;
    if (running === undefined) {
      this.#latest = this.#start();
      return this.#latest;
    }
    // The running sync may have started before this caller's write: queue one more after it.
    const queued = running
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined;
        return this.#start();
      });
    this.#queued = queued;
    this.#latest = queued;
    return queued;
  }

  /** Resolves once every write made before this call is durable (at once when no sync is pending). */
  barrier(): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return this.#latest;
  }

  /** Waits for pending syncs (ignoring their failure) and closes the file. Idempotent. */
  async close(): Promise<void> {
    await this.#latest.catch(() => undefined);
    await this.#handle.close().catch(() => undefined);
  }

  #start(): Promise<void> {
    const sync = (async () => {
      if (this.#failure !== undefined) throw this.#failure;
      try {
        await this.#beforeSync?.();
        await this.#handle.datasync();
        this.syncs += 1;
      } catch (error) {
        this.#failure ??= error;
        throw error;
      }
    })();
    this.#running = sync;
    void sync
      .catch(() => undefined)
      .then(() => {
        if (this.#running === sync) this.#running = undefined;
      });
    return sync;
  }
}
