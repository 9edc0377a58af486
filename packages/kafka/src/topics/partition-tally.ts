// The count of partitions one broker holds, for its partition limit: the sum of the partition counts of the topic
// records seen by the last listing, plus this process's own changes since (creations and added partitions when they
// finish, deletions when they finish), plus the partitions of changes still running (reserved, so concurrent
// requests cannot together pass the limit). Other brokers' changes count from the next listing. It is a guard
// rail, not an invariant: between listings it can be off by what other brokers did, and a listing that runs while
// a creation of this process is in flight may count that topic twice until the next listing.

/** Outcome of {@link PartitionTally.reserve}. */
export type PartitionReservation = { readonly ok: true } | { readonly ok: false; readonly total: number };

/** Partition count against a limit. Not thread-safe beyond JavaScript's single thread (it needs no more). */
export class PartitionTally {
  readonly limit: number;
  #known: number;
  #reserved = 0;

  /** `known` partitions exist now (from a listing); at most `limit` may. */
  constructor(limit: number, known: number) {
    this.limit = limit;
    this.#known = known;
  }

  /** Partitions counted now: known plus reserved. */
  get total(): number {
    return this.#known + this.#reserved;
  }

  /** Reserves `count` more partitions, or refuses when they would pass the limit (answering the current total). */
  reserve(count: number): PartitionReservation {
    if (this.total + count > this.limit) return { ok: false, total: this.total };
    this.#reserved += count;
    return { ok: true };
  }

  /** A reservation of `count` came true (the partitions exist) or, when `kept` is false, was given up. */
  settle(count: number, kept: boolean): void {
    this.#reserved -= count;
    if (kept) this.#known += count;
  }

  /** `count` partitions are gone (a deletion finished). */
  removed(count: number): void {
    this.#known = Math.max(0, this.#known - count);
  }

  /** A listing counted `known` partitions. */
  listed(known: number): void {
    this.#known = known;
  }
}
