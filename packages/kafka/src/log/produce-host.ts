// What the produce path (partition-producer.ts and the settlement, commit, failure and fence steps beside it) needs
// from its partition log: the shared context, the tail cache, the loaded committed state and the log's own
// operations on it. The log builds one per partition (never one per produce); the produce path keeps no state of
// the log's.
import type { KafkaTopic } from "../topics/kafka-topic.js";
import type { InFlightGroup } from "./append-pipeline.js";
import type { PartitionLogContext } from "./partition-log-context.js";
import type { PartitionState } from "./partition-state.js";
import type { TailCache } from "./tail-cache.js";

/** One append group of a partition log. */
export type Group = InFlightGroup<PartitionState>;

export interface ProduceHost {
  readonly topicName: string;
  readonly partition: number;
  readonly context: PartitionLogContext;
  readonly tail: TailCache;
  /** The loaded committed state (undefined when none is loaded or it was dropped). */
  loadedState(): PartitionState | undefined;
  /** Loads (or returns) the committed state for `topic`. Throws storage errors. */
  ensureLoaded(topic: KafkaTopic): Promise<PartitionState>;
  /** Forgets `state` if it is the loaded one (the next use reloads it) and notifies the listeners. */
  drop(state: PartitionState): void;
  /** Calls the log's change listeners. */
  notify(): void;
  scheduleCheckpoint(state: PartitionState): void;
  /** Lets the manager forget the log when nothing refers to it any more. */
  maybeIdle(): void;
  /** Runs the append loop (or wakes it). */
  drain(): void;
}
