// Replay search (docs/architecture.md §4.3): did the attempt with `commitId`, which would have started at `expectedStartOffset`,
// commit? First its replay marker by exact key; otherwise the head and a bounded walk down the commit chain.
// Exhausting the budget is not proof (result "unknown"); observing a later head end is never proof of commit. When
// the records the search needs were collected below the trim offset, the answer is "trimmed": the attempt's range
// lies below the trim, nothing of it can be read, and whether it committed can no longer be told (unless its
// marker still proves it did).
import type { CommitIntent } from "../domain/commit-records.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { loadHead } from "../records/load-head.js";
import type { StreamKeyspace, VersionedHead } from "../records/stream-keyspace.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import { walkCommitChain } from "./walk-commit-chain.js";

export type CommitSearchResult =
  /** Reachable from the head: committed. */
  | { readonly kind: "found"; readonly intent: CommitIntent }
  /** Proven not in the chain as of `head` (the caller still has to rule out a late apply against `head`). */
  | { readonly kind: "absent"; readonly head: VersionedHead }
  /** The bounded walk ran out before reaching `expectedStartOffset`. */
  | { readonly kind: "unknown"; readonly reason: string }
  /**
   * The attempt's range lies below the trim offset and the records that would tell were collected; `committed` is
   * true when its replay marker proved the commit before its intent was collected.
   */
  | { readonly kind: "trimmed"; readonly committed: boolean; readonly trimOffset: number };

export interface FindCommitInput {
  readonly metadata: MetadataStore;
  readonly keyspace: StreamKeyspace;
  readonly streamId: string;
  readonly commitId: string;
  readonly expectedStartOffset: number;
  /** Maximum intents read by the chain walk. */
  readonly budget: number;
  readonly signal?: AbortSignal;
}

/** Searches for one commit. Throws `NereusError` for a missing head or a broken/inconsistent chain. */
export async function findCommit(input: FindCommitInput): Promise<CommitSearchResult> {
  const { metadata, keyspace, streamId, commitId, expectedStartOffset, signal } = input;
  const headKey = keyspace.headKey(streamId);
  const markerKey = keyspace.markerKey(streamId, commitId);
  const found = await metadata.getMany([markerKey, headKey], { signal });
  const headKv = found.get(headKey);
  if (headKv === undefined)
    throw new NereusError(ErrorCode.STREAM_NOT_FOUND, `stream ${streamId} does not exist`, { retryable: false });
  const head = keyspace.decodeHead(headKv);
  const markerKv = found.get(markerKey);
  if (markerKv !== undefined) {
    const marker = keyspace.decodeMarker(markerKv);
    const intentKv = await metadata.get(keyspace.intentKey(streamId, commitId), { signal });
    if (intentKv === undefined) {
      const now = await loadHead(metadata, keyspace, streamId, signal);
      if (marker.offsetEnd <= now.head.trimOffset)
        return { kind: "trimmed", committed: true, trimOffset: now.head.trimOffset };
      throw invariant(streamId, `replay marker of ${commitId} exists but its intent does not`);
    }
    const intent = keyspace.decodeIntent(intentKv);
    if (
      marker.offsetStart !== intent.offsetStart ||
      marker.offsetEnd !== intent.offsetEnd ||
      marker.commitVersion !== intent.commitVersion
    ) {
      throw invariant(streamId, `replay marker of ${commitId} disagrees with its intent`);
    }
    if (intent.offsetStart !== expectedStartOffset) {
      throw invariant(
        streamId,
        `commit ${commitId} starts at ${String(intent.offsetStart)}, the attempt expected ${String(expectedStartOffset)}`,
      );
    }
    return { kind: "found", intent };
  }
  const end = head.head.committedEndOffset;
  if (end < expectedStartOffset) {
    throw invariant(
      streamId,
      `head end ${String(end)} is below the attempt's expected start ${String(expectedStartOffset)}`,
    );
  }
  if (end === expectedStartOffset) return { kind: "absent", head };
  let read = 0;
  const chain = walkCommitChain(
    metadata,
    keyspace,
    streamId,
    {
      commitId: head.head.lastCommitId,
      offsetEnd: end,
      commitVersion: head.head.commitVersion,
      cumulativeSize: head.head.cumulativeSize,
    },
    signal,
  );
  try {
    for await (const intent of chain) {
      if (intent.commitId === commitId) {
        if (intent.offsetStart !== expectedStartOffset) {
          throw invariant(
            streamId,
            `commit ${commitId} starts at ${String(intent.offsetStart)}, the attempt expected ${String(expectedStartOffset)}`,
          );
        }
        return { kind: "found", intent };
      }
      if (intent.offsetStart <= expectedStartOffset) return { kind: "absent", head };
      read += 1;
      if (read >= input.budget) {
        return { kind: "unknown", reason: `chain walk budget of ${String(input.budget)} intents exhausted` };
      }
    }
  } catch (error) {
    if (!NereusError.hasCode(error, ErrorCode.OFFSET_TRIMMED)) throw error;
    return { kind: "trimmed", committed: false, trimOffset: Number(error.details["trimOffset"] ?? 0) };
  }
  throw invariant(streamId, `the commit chain ended above offset ${String(expectedStartOffset)}`);
}

function invariant(streamId: string, message: string): NereusError {
  return new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, `stream ${streamId}: ${message}`, {
    retryable: false,
  });
}
