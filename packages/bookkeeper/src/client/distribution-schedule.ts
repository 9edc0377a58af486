// BookKeeper's round-robin distribution schedule: which ensemble indexes store an entry, and when a set of
// bookie answers "covers" the ensemble (every possible write set has fewer than Qa unanswered members), the
// condition fencing and LAC reads wait for. Pure functions of (entryId, E, Qw, Qa).

/** Ensemble indexes of `entryId`'s write set: `(entryId + i) mod E` for i in 0..Qw-1. */
export function writeSetOf(entryId: number, ensembleSize: number, writeQuorumSize: number): number[] {
  const out = new Array<number>(writeQuorumSize);
  for (let i = 0; i < writeQuorumSize; i += 1) out[i] = (entryId + i) % ensembleSize;
  return out;
}

/**
 * True when `answered` (ensemble indexes that gave a definite answer) covers the ensemble: in each of the E write
 * sets, fewer than `ackQuorumSize` members are unanswered. Then no entry can have been acknowledged without
 * at least one answering bookie holding it (RRQuorumCoverageSet in the Java client).
 */
export function isQuorumCovered(
  answered: ReadonlySet<number>,
  ensembleSize: number,
  writeQuorumSize: number,
  ackQuorumSize: number,
): boolean {
  for (let start = 0; start < ensembleSize; start += 1) {
    let unanswered = 0;
    for (let i = 0; i < writeQuorumSize; i += 1) if (!answered.has((start + i) % ensembleSize)) unanswered += 1;
    if (unanswered >= ackQuorumSize) return false;
  }
  return true;
}
