// Metadata key layout of the core stream records under a cluster prefix P = /nereus/clusters/{cluster}
// (docs/architecture.md §3.2, §8.2). Every dynamic component goes through the key-component codec and numbers through pad19, so no
// component contains "/" and lexicographic order of offset-index keys equals numeric order. Parsers are in
// stream-key-parsers.ts.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { encodeKeyComponent } from "../identity/key-component.js";
import { pad19 } from "../identity/pad19.js";

/** Fixed path segments of the stream key layout (durable; never rename). */
export const StreamKeySegment = {
  ROOT: "nereus",
  CLUSTERS: "clusters",
  STREAMS: "streams",
  HEAD: "head",
  COMMIT_LOG: "commit-log",
  COMMITTED_APPENDS: "committed-appends",
  OFFSET_INDEX: "offset-index",
} as const;

const CLUSTER_PREFIX_PATTERN = /^\/nereus\/clusters\/[A-Za-z0-9_.-]+$/;

function checkedPrefix(prefix: string): string {
  if (!CLUSTER_PREFIX_PATTERN.test(prefix)) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `${JSON.stringify(prefix)} is not a cluster prefix (use clusterPrefix())`,
    );
  }
  return prefix;
}

/** `/nereus/clusters/{cluster}`, the prefix P of every key of one Nereus cluster. */
export function clusterPrefix(cluster: string): string {
  return `/${StreamKeySegment.ROOT}/${StreamKeySegment.CLUSTERS}/${encodeKeyComponent(cluster)}`;
}

/** `P/streams/`: scan prefix of every stream of the cluster (and its other stream-scoped records). */
export function streamsPrefix(prefix: string): string {
  return `${checkedPrefix(prefix)}/${StreamKeySegment.STREAMS}/`;
}

/** `P/streams/{sid}/`: prefix of every record of one stream. */
export function streamPrefix(prefix: string, streamId: string): string {
  return `${streamsPrefix(prefix)}${encodeKeyComponent(streamId)}/`;
}

/** `P/streams/{sid}/head`: the authoritative StreamHead. */
export function streamHeadKey(prefix: string, streamId: string): string {
  return `${streamPrefix(prefix, streamId)}${StreamKeySegment.HEAD}`;
}

/** `P/streams/{sid}/commit-log/`: scan prefix of a stream's commit intents (in commit-id order, not offset order). */
export function commitLogPrefix(prefix: string, streamId: string): string {
  return `${streamPrefix(prefix, streamId)}${StreamKeySegment.COMMIT_LOG}/`;
}

/** `P/streams/{sid}/commit-log/{commitId}`: an immutable CommitIntent. */
export function commitIntentKey(prefix: string, streamId: string, commitId: string): string {
  return `${commitLogPrefix(prefix, streamId)}${encodeKeyComponent(commitId)}`;
}

/** `P/streams/{sid}/committed-appends/`: scan prefix of a stream's replay markers. */
export function replayMarkerPrefix(prefix: string, streamId: string): string {
  return `${streamPrefix(prefix, streamId)}${StreamKeySegment.COMMITTED_APPENDS}/`;
}

/** `P/streams/{sid}/committed-appends/{commitId}`: a ReplayMarker. */
export function replayMarkerKey(prefix: string, streamId: string, commitId: string): string {
  return `${replayMarkerPrefix(prefix, streamId)}${encodeKeyComponent(commitId)}`;
}

/** `P/streams/{sid}/offset-index/`: scan prefix of a stream's offset index (ascending offsetEnd, then generation). */
export function offsetIndexPrefix(prefix: string, streamId: string): string {
  return `${streamPrefix(prefix, streamId)}${StreamKeySegment.OFFSET_INDEX}/`;
}

/** `P/streams/{sid}/offset-index/{offsetEnd19}/{generation19}`: an OffsetIndexEntry. */
export function offsetIndexKey(prefix: string, streamId: string, offsetEnd: number, generation: number): string {
  return `${offsetIndexPrefix(prefix, streamId)}${pad19(offsetEnd)}/${pad19(generation)}`;
}

/**
 * Inclusive scan start for "index entries whose offsetEnd >= minOffsetEnd": to find the entry containing offset
 * `o`, scan `offsetIndexPrefix` from `offsetIndexScanStartKey(P, sid, o + 1)`.
 */
export function offsetIndexScanStartKey(prefix: string, streamId: string, minOffsetEnd: number): string {
  return `${offsetIndexPrefix(prefix, streamId)}${pad19(minOffsetEnd)}`;
}
