// In-process pins of the physical targets reads are using (packages/core/README.md, "Storage reclamation"). A read
// pins every target it is about to fetch and releases it when the fetch settled; a collector in the same process
// condemns a target right before it moves the target's root to DELETING, which succeeds only while no read holds
// it, and from then on refuses every new pin of it. JavaScript runs one callback at a time, so "check no pin, then
// condemn" and "check not condemned, then pin" are each atomic: a read that pinned first finishes on intact bytes,
// and a read that comes later is refused and resolves again from metadata (a higher generation, or a clean
// OFFSET_TRIMMED). Reads of other processes are covered by the collector's grace period instead.
import type { ReadTarget } from "../domain/read-target.js";

/** Pins of one process (one per stream store; a collector of the same process shares it). */
export class ReadPins {
  readonly #counts = new Map<string, number>();
  readonly #condemned = new Set<string>();

  /**
   * Pins `ids` for one read and returns the function that releases them (idempotent), or `undefined` — pinning
   * nothing — when any of them is condemned.
   */
  pin(ids: readonly string[]): (() => void) | undefined {
    for (const id of ids) if (this.#condemned.has(id)) return undefined;
    for (const id of ids) this.#counts.set(id, (this.#counts.get(id) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const id of ids) {
        const left = (this.#counts.get(id) ?? 1) - 1;
        if (left > 0) this.#counts.set(id, left);
        else this.#counts.delete(id);
      }
    };
  }

  /** True while a read holds `id`. */
  isPinned(id: string): boolean {
    return this.#counts.has(id);
  }

  /**
   * Condemns `id` unless a read holds it. True when `id` is (now or already) condemned: every later `pin` of it is
   * refused until `absolve(id)`.
   */
  condemn(id: string): boolean {
    if (this.#counts.has(id)) return false;
    this.#condemned.add(id);
    return true;
  }

  /** Lifts a condemnation (the target is gone for good, or the collector stepped back). */
  absolve(id: string): void {
    this.#condemned.delete(id);
  }

  /** Targets read right now (distinct ids). */
  get pinnedCount(): number {
    return this.#counts.size;
  }
}

/**
 * The physical thing a target's bytes live in, as pins name it: `object:{objectKey}` for an object slice,
 * `bookkeeper:{clusterAlias}/{ledgerId}` for a ledger range. Two targets share an id iff deleting one's
 * physical thing would delete the other's bytes.
 */
export function physicalTargetId(target: ReadTarget): string {
  return target.type === "OBJECT_SLICE"
    ? objectPhysicalId(target.objectKey)
    : `bookkeeper:${target.clusterAlias}/${target.ledgerId}`;
}

/** The pin id of the object at `objectKey` (what reads of any of its slices pin). */
export function objectPhysicalId(objectKey: string): string {
  return `object:${objectKey}`;
}
