// Read path, repair step (docs/architecture.md §5.2): when no index entry covers an offset below the committed end, rebuild the
// generation-0 index (and replay markers) from the authority — the commit chain reachable from the head. Walks down
// from the nearest indexed commit above the gap (or from the head), writes every walked commit's derived records
// put-if-absent-or-equal, and stops once the offset is covered. A gap is never reported as end-of-stream.
import type { OffsetIndexEntry } from "../domain/commit-records.js";
import type { StreamHead } from "../domain/stream-head.js";
import type { CommitIntent } from "../domain/commit-records.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { anchorBelow, walkCommitChain, type ChainAnchor } from "../commit-chain/walk-commit-chain.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { StreamKeyspace } from "../records/stream-keyspace.js";
import { ensureGenerationZero } from "./ensure-generation-zero.js";

export interface RepairInput {
  readonly metadata: MetadataStore;
  readonly keyspace: StreamKeyspace;
  readonly head: StreamHead;
  readonly offset: number;
  /** Nearest generation-0 entry above the gap (walk starts below its commit); undefined = walk from the head. */
  readonly above: OffsetIndexEntry | undefined;
  /** Commits this call may walk. */
  readonly budget: number;
  readonly signal?: AbortSignal;
}

/**
 * Repairs the generation-0 index down to `offset`. Throws retriable READ_RESOLUTION_FAILED when the budget ran
 * out first (the progress made is kept, so the next call continues below it), METADATA_INVARIANT_VIOLATION for
 * a broken chain or an index entry that disagrees with its commit.
 */
export async function repairGenerationZeroIndex(input: RepairInput): Promise<void> {
  const { metadata, keyspace, head } = input;
  const streamId = head.streamId;
  let anchor: ChainAnchor = {
    commitId: head.lastCommitId,
    offsetEnd: head.committedEndOffset,
    commitVersion: head.commitVersion,
    cumulativeSize: head.cumulativeSize,
  };
  if (input.above !== undefined) {
    const above = input.above;
    const stored = await metadata.get(keyspace.intentKey(streamId, above.commitId), { signal: input.signal });
    const intent = stored === undefined ? undefined : keyspace.decodeIntent(stored);
    if (intent === undefined || intent.offsetStart !== above.offsetStart || intent.offsetEnd !== above.offsetEnd) {
      throw new NereusError(
        ErrorCode.METADATA_INVARIANT_VIOLATION,
        `stream ${streamId}: index entry [${String(above.offsetStart)}, ${String(above.offsetEnd)}) does not match commit ${above.commitId}`,
        { retryable: false },
      );
    }
    anchor = anchorBelow(intent);
  }
  const walked: CommitIntent[] = [];
  let covered = false;
  for await (const intent of walkCommitChain(metadata, keyspace, streamId, anchor, input.signal)) {
    walked.push(intent);
    if (intent.offsetStart <= input.offset) {
      covered = true;
      break;
    }
    if (walked.length >= input.budget) break;
  }
  await ensureGenerationZero(metadata, keyspace, walked, input.signal);
  if (!covered) {
    throw new NereusError(
      ErrorCode.READ_RESOLUTION_FAILED,
      `stream ${streamId}: index repair walked ${String(walked.length)} commits without reaching offset ${String(input.offset)}; retry to continue`,
      { retryable: true },
    );
  }
}
