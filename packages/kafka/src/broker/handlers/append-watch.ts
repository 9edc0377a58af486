// The long poll of a Fetch (1) request: a watch on the requested partitions that wakes the request when an append
// commits to one of them, when its wait times out, or when the request's wait signal aborts.
import type { PartitionLog } from "../../log/partition-log.js";
import type { KafkaTopic } from "../../topics/kafka-topic.js";
import type { BrokerServices } from "../broker-services.js";

/** The logs of the requested partitions that exist (one per valid partition of a found topic). */
export function requestedLogs(
  services: BrokerServices,
  requested: ReadonlyArray<{ readonly partitions: ReadonlyArray<{ readonly partition: number }> }>,
  topics: ReadonlyArray<KafkaTopic | undefined>,
): PartitionLog[] {
  const logs: PartitionLog[] = [];
  for (const [index, entry] of requested.entries()) {
    const topic = topics[index];
    if (topic === undefined) continue;
    for (const partition of entry.partitions) {
      if (partition.partition >= 0 && partition.partition < topic.partitionCount)
        logs.push(services.logs.get(topic.name, partition.partition));
    }
  }
  return logs;
}

/**
 * Watches partitions for appends from the moment it is created (so an append between evaluating a fetch and
 * starting to wait is not missed).
 */
export class AppendWatch {
  #changed = false;
  #wake: (() => void) | undefined;
  readonly #unsubscribes: Array<() => void>;

  constructor(logs: readonly PartitionLog[]) {
    this.#unsubscribes = logs.map((log) =>
      log.onChange(() => {
        this.#changed = true;
        this.#wake?.();
      }),
    );
  }

  /** Resolves on the first append since construction, after `timeoutMs`, or when `signal` aborts. */
  wait(timeoutMs: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.#changed || signal.aborted) {
        this.close();
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        this.#wake = undefined;
        this.close();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal.addEventListener("abort", done, { once: true });
      this.#wake = done;
    });
  }

  close(): void {
    for (const unsubscribe of this.#unsubscribes.splice(0)) unsubscribe();
  }
}
