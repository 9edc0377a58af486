// The core stream records of one cluster, bound to their keys: key builders plus encode/decode through the
// canonical record codecs, with every decoded record checked against the key it was read from. The one place
// the pipeline touches key layout and record formats. Returned byte arrays are fresh and owned by the caller.
import type { CommitIntent, OffsetIndexEntry, ReplayMarker } from "../domain/commit-records.js";
import type { GenerationIndexEntry } from "../domain/generation-records.js";
import type { StreamHead } from "../domain/stream-head.js";
import {
  clusterPrefix,
  commitIntentKey,
  commitLogPrefix,
  offsetIndexKey,
  offsetIndexPrefix,
  offsetIndexScanStartKey,
  replayMarkerKey,
  replayMarkerPrefix,
  streamHeadKey,
} from "../keys/stream-keys.js";
import { generationIndexKey, generationIndexPrefix, generationIndexScanStartKey } from "../keys/generation-keys.js";
import { commitIntentCodec } from "./commit-intent-codec.js";
import { generationIndexCodec } from "./generation-index-codec.js";
import { offsetIndexCodec } from "./offset-index-codec.js";
import { replayMarkerCodec } from "./replay-marker-codec.js";
import { streamHeadCodec } from "./stream-head-codec.js";
import type { KeyValue } from "../spi/metadata-store.js";

/** A head as read from the store, with the revision a CAS on it must compare. */
export interface VersionedHead {
  readonly head: StreamHead;
  readonly revision: number;
}

/** Keys and codecs of the core stream records under `/nereus/clusters/{cluster}`. */
export class StreamKeyspace {
  readonly cluster: string;
  readonly prefix: string;

  constructor(cluster: string) {
    this.cluster = cluster;
    this.prefix = clusterPrefix(cluster);
  }

  headKey(streamId: string): string {
    return streamHeadKey(this.prefix, streamId);
  }

  intentKey(streamId: string, commitId: string): string {
    return commitIntentKey(this.prefix, streamId, commitId);
  }

  /** Scan prefix of a stream's commit intents. */
  intentPrefix(streamId: string): string {
    return commitLogPrefix(this.prefix, streamId);
  }

  markerKey(streamId: string, commitId: string): string {
    return replayMarkerKey(this.prefix, streamId, commitId);
  }

  /** Scan prefix of a stream's replay markers. */
  markerPrefix(streamId: string): string {
    return replayMarkerPrefix(this.prefix, streamId);
  }

  indexKey(streamId: string, offsetEnd: number, generation: number): string {
    return offsetIndexKey(this.prefix, streamId, offsetEnd, generation);
  }

  indexPrefix(streamId: string): string {
    return offsetIndexPrefix(this.prefix, streamId);
  }

  /** Inclusive scan start for index entries with `offsetEnd >= minOffsetEnd`. */
  indexScanStart(streamId: string, minOffsetEnd: number): string {
    return offsetIndexScanStartKey(this.prefix, streamId, minOffsetEnd);
  }

  generationIndexKey(streamId: string, offsetEnd: number, generation: number): string {
    return generationIndexKey(this.prefix, streamId, offsetEnd, generation);
  }

  generationIndexPrefix(streamId: string): string {
    return generationIndexPrefix(this.prefix, streamId);
  }

  /** Inclusive scan start for generation index entries with `offsetEnd >= minOffsetEnd`. */
  generationIndexScanStart(streamId: string, minOffsetEnd: number): string {
    return generationIndexScanStartKey(this.prefix, streamId, minOffsetEnd);
  }

  encodeHead(head: StreamHead): Uint8Array {
    return streamHeadCodec.encode(head);
  }

  decodeHead(keyValue: KeyValue): VersionedHead {
    return { head: streamHeadCodec.decode(keyValue.value, keyValue.key), revision: keyValue.modRevision };
  }

  encodeIntent(intent: CommitIntent): Uint8Array {
    return commitIntentCodec.encode(intent);
  }

  decodeIntent(keyValue: KeyValue): CommitIntent {
    return commitIntentCodec.decode(keyValue.value, keyValue.key);
  }

  encodeMarker(marker: ReplayMarker): Uint8Array {
    return replayMarkerCodec.encode(marker);
  }

  decodeMarker(keyValue: KeyValue): ReplayMarker {
    return replayMarkerCodec.decode(keyValue.value, keyValue.key);
  }

  encodeIndex(entry: OffsetIndexEntry): Uint8Array {
    return offsetIndexCodec.encode(entry);
  }

  decodeIndex(keyValue: KeyValue): OffsetIndexEntry {
    return offsetIndexCodec.decode(keyValue.value, keyValue.key);
  }

  encodeGenerationIndex(entry: GenerationIndexEntry): Uint8Array {
    return generationIndexCodec.encode(entry);
  }

  decodeGenerationIndex(keyValue: KeyValue): GenerationIndexEntry {
    return generationIndexCodec.decode(keyValue.value, keyValue.key);
  }
}
