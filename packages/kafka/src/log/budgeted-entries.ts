// How Fetch takes buffered batches: from a starting entry, whole entries in order, below the partition's high
// watermark, within a byte budget except that the first entry is always taken (Kafka returns at least one batch).
import type { ReadEntry } from "@nereus/core";

/** The entries taken, their bytes, and the index right after the last one taken. */
export interface BudgetedEntries {
  readonly entries: ReadEntry[];
  readonly bytes: number;
  readonly next: number;
}

/** Takes `entries[first..]` while below `endOffset` and within `maxBytes` (the first one regardless of its size). */
export function takeWithinBudget(
  entries: readonly ReadEntry[],
  first: number,
  maxBytes: number,
  endOffset: number,
): BudgetedEntries {
  const taken: ReadEntry[] = [];
  let bytes = 0;
  let index = first;
  for (; index < entries.length; index++) {
    const entry = entries[index] as ReadEntry;
    if (entry.offset >= endOffset) break;
    const size = entry.payload.byteLength;
    if (taken.length > 0 && bytes + size > maxBytes) break;
    taken.push(entry);
    bytes += size;
  }
  return { entries: taken, bytes, next: index };
}
