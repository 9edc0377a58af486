// Opening subscriptions: a durable one over a named cursor of the stream (created at the initial position when it
// does not exist yet), or a non-durable one (a reader) whose ack state lives in memory from a start offset.
import { ErrorCode, NereusError } from "@nereus/core";
import type { StreamCursors } from "@nereus/cursor";
import { DurableAcks } from "./durable-acks.js";
import type { EntrySource } from "./entry-source.js";
import { MemoryAcks } from "./memory-acks.js";
import { Subscription } from "./subscription.js";
import type { SubscriptionOptions } from "./subscription-options.js";

/** Where a new subscription starts: the first stored entry, or the next one to be committed. */
export type InitialPosition = "earliest" | "latest";

export interface DurableSubscriptionParameters {
  /** The stream's cursors, opened for writing by this process. */
  readonly cursors: StreamCursors;
  /** Subscription name = cursor name. */
  readonly name: string;
  readonly source: EntrySource;
  /** Where the cursor starts when it does not exist yet (default "latest"). */
  readonly initialPosition?: InitialPosition;
  readonly options?: SubscriptionOptions;
}

/**
 * Opens the durable subscription `name`: its cursor as stored, or a new one at `initialPosition`. Dispatch starts
 * at the cursor's first unacknowledged entry.
 */
export async function openDurableSubscription(parameters: DurableSubscriptionParameters): Promise<Subscription> {
  const { cursors, name } = parameters;
  let handle = cursors.get(name);
  if (handle === undefined) {
    try {
      handle = await cursors.createCursor(name, { initialOffset: parameters.initialPosition ?? "latest" });
    } catch (error) {
      handle = NereusError.hasCode(error, ErrorCode.CURSOR_ALREADY_EXISTS) ? cursors.get(name) : undefined;
      if (handle === undefined) throw error;
    }
  }
  return new Subscription(name, new DurableAcks(cursors, handle), parameters.source, parameters.options);
}

export interface ReaderSubscriptionParameters {
  readonly name: string;
  readonly source: EntrySource;
  /** The first entry to deliver (an offset beyond the committed end means the end), or "earliest"/"latest". */
  readonly start: number | InitialPosition;
  readonly options?: SubscriptionOptions;
}

/** Opens a non-durable subscription: nothing of it is stored, and it ends with this process. */
export async function openReaderSubscription(parameters: ReaderSubscriptionParameters): Promise<Subscription> {
  const { start, source } = parameters;
  if (typeof start === "number" && (!Number.isSafeInteger(start) || start < 0)) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `reader start must be a non-negative safe integer, got ${start}`,
      {
        retryable: false,
      },
    );
  }
  const offset = start === "earliest" ? 0 : Math.min(start === "latest" ? Infinity : start, await source.endOffset());
  return new Subscription(parameters.name, new MemoryAcks(offset), source, parameters.options);
}
