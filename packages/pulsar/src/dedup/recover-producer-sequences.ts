// Rebuilds a topic stream's producer sequence table from what is committed: the stored checkpoint when it fits the
// stream (at or below the committed end), then every entry after it (or after the trim offset, whichever is later)
// replayed in offset order (markers and the chunks before a message's last one are skipped, as on the send path,
// see tracked-sequence.ts). A checkpoint that cannot be read or does not fit is ignored and the whole retained
// stream is replayed. `catchUpProducerSequences` applies what a live table missed; `writeDedupCheckpoint` stores a
// table so the next recovery replays less. Reads only the stream; one metadata read and one put.
import { ErrorCode, type MetadataStore, NereusError, type StreamHead, type StreamStore } from "@nereus/core";
import { parseEntryMetadata } from "../entries/entry-metadata.js";
import type { PulsarKeyspace } from "../topics/pulsar-keys.js";
import { type DedupCheckpoint, dedupCheckpointCodec } from "./dedup-checkpoint-codec.js";
import { ProducerSequences } from "./producer-sequences.js";
import { trackedSequenceOf } from "./tracked-sequence.js";

export interface RecoverProducerSequencesInput {
  readonly metadata: MetadataStore;
  readonly streams: Pick<StreamStore, "read">;
  readonly keyspace: PulsarKeyspace;
  /** The stream's head (its trim offset and committed end bound the replay). */
  readonly head: StreamHead;
  /** Payload bytes one replay read asks for (default 4 MiB). */
  readonly readBytes?: number;
  readonly signal?: AbortSignal;
}

/** What recovery found: the table and how it was built. */
export interface RecoveredProducerSequences {
  readonly sequences: ProducerSequences;
  /** The checkpoint used, or undefined when there was none that fits. */
  readonly checkpoint: DedupCheckpoint | undefined;
  /** Entries replayed after the checkpoint (or the trim offset). */
  readonly replayedEntries: number;
}

/** Entries one replay read asks for at most. */
const REPLAY_READ_ENTRIES = 10_000;

async function readCheckpoint(input: RecoverProducerSequencesInput): Promise<DedupCheckpoint | undefined> {
  const { head } = input;
  const key = input.keyspace.dedupKey(head.streamId);
  const stored = await input.metadata.get(key, { signal: input.signal });
  if (stored === undefined) return undefined;
  let checkpoint: DedupCheckpoint;
  try {
    checkpoint = dedupCheckpointCodec(input.keyspace).decode(stored.value, stored.key);
  } catch {
    return undefined;
  }
  return checkpoint.endOffset <= head.committedEndOffset ? checkpoint : undefined;
}

/**
 * The producer sequence table of `head`'s stream, as of its committed end. A checkpoint below the trim offset still
 * counts (sequence ids only grow, so it is a lower bound of what the trimmed entries held). Throws DECODE_ERROR for
 * a committed entry that is not a Pulsar entry, and the stream store's errors.
 */
export async function recoverProducerSequences(
  input: RecoverProducerSequencesInput,
): Promise<RecoveredProducerSequences> {
  const checkpoint = await readCheckpoint(input);
  const sequences = checkpoint === undefined ? new ProducerSequences() : ProducerSequences.fromCheckpoint(checkpoint);
  const replayedEntries = await catchUpProducerSequences({ ...input, sequences });
  return { sequences, checkpoint, replayedEntries };
}

export interface CatchUpProducerSequencesInput {
  readonly sequences: ProducerSequences;
  readonly streams: Pick<StreamStore, "read">;
  /** The stream's head: entries from `sequences.appliedEnd` (at least its trim) up to its committed end are applied. */
  readonly head: StreamHead;
  /** Payload bytes one replay read asks for (default 4 MiB). */
  readonly readBytes?: number;
  readonly signal?: AbortSignal;
}

/**
 * Applies to `sequences` the committed entries it has not seen, up to `head`'s committed end, and returns how many
 * it applied. After an append whose outcome the caller never learned (it failed uncertain and was recovered later),
 * this brings the table back to what is committed. Throws DECODE_ERROR for an entry that is not a Pulsar entry.
 */
export async function catchUpProducerSequences(input: CatchUpProducerSequencesInput): Promise<number> {
  const { head, sequences } = input;
  sequences.advanceTo(head.trimOffset);
  let offset = sequences.appliedEnd;
  let applied = 0;
  while (offset < head.committedEndOffset) {
    const result = await input.streams.read(head.streamId, offset, {
      maxBytes: input.readBytes ?? 4 * 1024 * 1024,
      maxRecords: Math.min(head.committedEndOffset - offset, REPLAY_READ_ENTRIES),
      signal: input.signal,
    });
    for (const entry of result.entries) {
      if (entry.offset >= head.committedEndOffset) break;
      const tracked = trackedSequenceOf(parseEntryMetadata(entry.payload));
      if (tracked === undefined) sequences.advanceTo(entry.offset + 1);
      else sequences.applyEntry(entry.offset, tracked.producerName, tracked.lastSequenceId);
      applied += 1;
    }
    if (result.nextOffset <= offset) {
      throw new NereusError(
        ErrorCode.METADATA_INVARIANT_VIOLATION,
        `stream ${head.streamId}: replay read at ${String(offset)} returned nothing below the committed end ${String(head.committedEndOffset)}`,
      );
    }
    offset = Math.min(result.nextOffset, head.committedEndOffset);
    sequences.advanceTo(offset);
  }
  return applied;
}

/** Stores `sequences` as the checkpoint of `streamId` (one unconditional put). */
export async function writeDedupCheckpoint(
  metadata: MetadataStore,
  keyspace: PulsarKeyspace,
  streamId: string,
  sequences: ProducerSequences,
  signal?: AbortSignal,
): Promise<void> {
  const key = keyspace.dedupKey(streamId);
  const value = dedupCheckpointCodec(keyspace).encode(sequences.checkpoint(streamId));
  await metadata.txn({ compares: [], writes: [{ type: "put", key, value }] }, { signal });
}
