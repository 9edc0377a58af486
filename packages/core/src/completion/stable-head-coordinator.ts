// Built-in completion coordinator for the STABLE_HEAD boundary: the producer hears success as soon as the head
// CAS committed (WAL durable + reachable intent + stable offset). Generation-0 index work is left to the read
// path and background repair. Does no I/O.
import type { CompletionContext, CompletionCoordinator } from "../spi/completion.js";

/** Completes immediately: the head CAS that preceded it is the whole STABLE_HEAD boundary. */
export class StableHeadCoordinator implements CompletionCoordinator {
  readonly boundary = "STABLE_HEAD" as const;

  async complete(_context: CompletionContext): Promise<void> {
    // The committed head is the boundary; nothing to wait for.
  }
}
