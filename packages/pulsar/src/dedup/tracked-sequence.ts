// Which entries broker-side deduplication judges and remembers, read from an entry's metadata: every entry of a
// producer except internal markers, the chunks before the last one of a chunked message (all chunks share the
// message's sequence id; only the last one completes it) and entries without a producer name. The live send path and recovery from the stream both
// decide through here, so a table rebuilt from storage equals the one kept while sending.
import type { EntryMetadata } from "../entries/entry-metadata.js";

/** The sequence ids an entry stands for, as deduplication sees them. */
export interface TrackedSequence {
  readonly producerName: string;
  /** Sequence id of the first message (what a send is judged by). */
  readonly sequenceId: bigint;
  /** Sequence id of the last message: max(sequenceId, highestSequenceId) (what is remembered). */
  readonly lastSequenceId: bigint;
}

/**
 * The sequence ids deduplication tracks for `entry`, or undefined for a marker, a chunk before the last one, or an
 * entry whose producer name is empty.
 */
export function trackedSequenceOf(entry: EntryMetadata): TrackedSequence | undefined {
  if (entry.isMarker || entry.producerName.length === 0) return undefined;
  const { chunkId, numChunksFromMsg } = entry.metadata;
  if (entry.isChunk && chunkId !== undefined && numChunksFromMsg !== undefined && chunkId < numChunksFromMsg - 1) {
    return undefined;
  }
  return { producerName: entry.producerName, sequenceId: entry.sequenceId, lastSequenceId: entry.lastSequenceId };
}
