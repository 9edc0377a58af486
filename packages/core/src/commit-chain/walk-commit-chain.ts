// Walks the commit chain backwards from a known committed point (the head, or a reachable commit), one intent
// per metadata read, validating every link: dense offsets, commit versions counting down by one, cumulative
// sizes shrinking by each commit's logical bytes, and the intent stored under its own id. A broken chain is a
// METADATA_INVARIANT_VIOLATION, never "not found". Intents wholly below the trim offset may have been collected:
// a missing intent that the current head's trim offset covers ends the walk with OFFSET_TRIMMED (the chain below
// the trim offset is not history any more), any other missing intent is a broken chain.
import type { CommitIntent } from "../domain/commit-records.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { loadHead } from "../records/load-head.js";
import type { StreamKeyspace } from "../records/stream-keyspace.js";
import type { MetadataStore } from "../spi/metadata-store.js";

/** The facts the next (older) commit in the chain must end at. */
export interface ChainAnchor {
  /** Id of the commit to read next ("" = the chain ends here). */
  readonly commitId: string;
  readonly offsetEnd: number;
  readonly commitVersion: number;
  readonly cumulativeSize: number;
}

/** The anchor for walking down from `intent` (its predecessor must end where it starts). */
export function anchorBelow(intent: CommitIntent): ChainAnchor {
  return {
    commitId: intent.previousCommitId,
    offsetEnd: intent.offsetStart,
    commitVersion: intent.commitVersion - 1,
    cumulativeSize: intent.cumulativeSize - intent.logicalBytes,
  };
}

/**
 * Yields intents from `anchor` towards offset 0. Stops when the chain ends (`previousCommitId === ""`, which
 * must coincide with offset 0, version 0 and size 0). Each step is one `get`. Throws OFFSET_TRIMMED (details
 * `trimOffset`) when the next intent was collected below the trim offset, STREAM_NOT_ACTIVE when the stream is
 * being deleted.
 */
export async function* walkCommitChain(
  metadata: MetadataStore,
  keyspace: StreamKeyspace,
  streamId: string,
  from: ChainAnchor,
  signal?: AbortSignal,
): AsyncGenerator<CommitIntent, void, undefined> {
  let anchor = from;
  while (anchor.commitId !== "") {
    const key = keyspace.intentKey(streamId, anchor.commitId);
    const stored = await metadata.get(key, { signal });
    if (stored === undefined) throw await missingIntent(metadata, keyspace, streamId, anchor, signal);
    const intent = keyspace.decodeIntent(stored);
    if (
      intent.commitId !== anchor.commitId ||
      intent.streamId !== streamId ||
      intent.offsetEnd !== anchor.offsetEnd ||
      intent.commitVersion !== anchor.commitVersion ||
      intent.cumulativeSize !== anchor.cumulativeSize ||
      intent.offsetStart + intent.recordCount !== intent.offsetEnd
    ) {
      throw broken(
        streamId,
        `commit ${anchor.commitId} does not continue the chain (expected end ${String(anchor.offsetEnd)}, version ${String(anchor.commitVersion)}, size ${String(anchor.cumulativeSize)}; found end ${String(intent.offsetEnd)}, version ${String(intent.commitVersion)}, size ${String(intent.cumulativeSize)})`,
      );
    }
    yield intent;
    anchor = anchorBelow(intent);
  }
  if (anchor.offsetEnd !== 0 || anchor.commitVersion !== 0 || anchor.cumulativeSize !== 0) {
    throw broken(streamId, `the commit chain ends at offset ${String(anchor.offsetEnd)} instead of 0`);
  }
}

/** Why the intent `anchor` names is missing: collected below the trim offset, or a broken chain. */
async function missingIntent(
  metadata: MetadataStore,
  keyspace: StreamKeyspace,
  streamId: string,
  anchor: ChainAnchor,
  signal: AbortSignal | undefined,
): Promise<NereusError> {
  const { head } = await loadHead(metadata, keyspace, streamId, signal);
  if (head.state === "DELETING" || head.state === "DELETED") {
    return new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `stream ${streamId} is ${head.state}`, { retryable: false });
  }
  if (anchor.offsetEnd <= head.trimOffset) {
    return new NereusError(
      ErrorCode.OFFSET_TRIMMED,
      `stream ${streamId}: the commit chain below offset ${String(anchor.offsetEnd)} was trimmed (trim offset ${String(head.trimOffset)})`,
      { retryable: false, details: { trimOffset: head.trimOffset } },
    );
  }
  return broken(streamId, `commit ${anchor.commitId} is reachable but its intent is missing`);
}

function broken(streamId: string, message: string): NereusError {
  return new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, `stream ${streamId}: ${message}`, {
    retryable: false,
  });
}
