// Process-local registry of append attempts by attempt id (`processRunId + "/" + sequence`). It lets
// `recoverAppend` find the exact attempt a failed append named. Bounded: resolved attempts are evicted oldest
// first beyond `capacity`; unresolved ones are never evicted (their lanes are suspended on them).
import { randomBytes } from "node:crypto";
import type { AppendAttempt } from "../lane/append-attempt.js";

/** Default number of retained attempts (docs/architecture.md §10; resolved results are cheap). */
const DEFAULT_RETAINED_ATTEMPTS = 10_000;

interface Registered {
  readonly attempt: AppendAttempt;
  readonly memberIndex: number;
}

/** Allocates attempt ids and maps them to attempts. */
export class AttemptRegistry {
  /** ≥ 128 random bits per process start. */
  readonly processRunId: string;
  readonly #byId = new Map<string, Registered>();
  readonly #capacity: number;
  #sequence = 0;

  constructor(capacity = DEFAULT_RETAINED_ATTEMPTS, processRunId = randomBytes(16).toString("hex")) {
    this.#capacity = capacity;
    this.processRunId = processRunId;
  }

  /** A fresh attempt id; never reused within this registry. */
  nextAttemptId(): string {
    this.#sequence += 1;
    return `${this.processRunId}/${String(this.#sequence)}`;
  }

  /** Registers every member id of `attempt`. */
  register(attempt: AppendAttempt): void {
    attempt.members.forEach((member, memberIndex) => {
      this.#byId.set(member.attemptId, { attempt, memberIndex });
    });
    this.#evict();
  }

  lookup(attemptId: string): Registered | undefined {
    return this.#byId.get(attemptId);
  }

  /** Forgets one member id (its caller received a success; nobody can ask for it again). */
  forget(attemptId: string): void {
    this.#byId.delete(attemptId);
  }

  get size(): number {
    return this.#byId.size;
  }

  #evict(): void {
    if (this.#byId.size <= this.#capacity) return;
    for (const [id, entry] of this.#byId) {
      if (this.#byId.size <= this.#capacity) return;
      if (entry.attempt.resolution !== undefined) this.#byId.delete(id);
    }
  }
}
