// The entry point of durable cursors: a CursorStore holds the resolved environment (stores, limits, clock) and
// opens streams for cursor writes. Each open claims the stream for a new owner session, which fences every
// earlier open of the same stream, in this process or any other.
import { CursorCounters } from "../cursor/cursor-counters.js";
import { OperationDeadline } from "../cursor/operation-deadline.js";
import type { CursorStoreOptions } from "../store/cursor-store-options.js";
import type { CursorEnvironment } from "../store/owner-context.js";
import { resolveCursorEnvironment } from "../store/resolve-cursor-environment.js";
import { openStreamCursors } from "./open-stream-cursors.js";
import type { StreamCursors, StreamOperationOptions } from "./stream-cursors.js";

/**
 * Durable cursors over one metadata store, one object store and one stream store. Construction checks the options
 * (INVALID_ARGUMENT) and does no I/O. Opening a stream again closes this store's earlier open of it (which the new
 * claim fenced anyway); `close` closes every stream this store has open.
 */
export class CursorStore {
  readonly env: CursorEnvironment;
  /** Counters of the durable work of every cursor this store opened. */
  readonly counters = new CursorCounters();
  /** The latest open of each stream (an earlier open of the same stream is fenced by the later one). */
  readonly #open = new Map<string, StreamCursors>();

  constructor(options: CursorStoreOptions) {
    this.env = resolveCursorEnvironment(options);
  }

  /**
   * Opens `streamId` for cursor writes (see {@link openStreamCursors}): claims it for a new owner session, completes
   * any pending protection or trim exactly, and hydrates every cursor. Bounded by `limits.operationTimeoutMs`.
   */
  async openStream(streamId: string, options: StreamOperationOptions = {}): Promise<StreamCursors> {
    const deadline = OperationDeadline.start(this.env.limits.operationTimeoutMs, options.signal);
    let cursors: StreamCursors;
    try {
      cursors = await openStreamCursors(this.env, streamId, this.counters, deadline.signal());
    } catch (error) {
      if (deadline.expired()) throw deadline.error(`open cursors of stream ${streamId}`, error);
      throw error;
    }
    const previous = this.#open.get(streamId);
    this.#open.set(streamId, cursors);
    if (previous !== undefined) void previous.close();
    return cursors;
  }

  /** Closes every stream this store opened. Idempotent. */
  async close(): Promise<void> {
    const open = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(open.map((cursors) => cursors.close()));
  }
}

/** A CursorStore over `options` (INVALID_ARGUMENT for bad options; no I/O). */
export function createCursorStore(options: CursorStoreOptions): CursorStore {
  return new CursorStore(options);
}
