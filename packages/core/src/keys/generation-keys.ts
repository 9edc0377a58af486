// Metadata key layout of the higher-generation index of the COMMITTED view, under P = /nereus/clusters/{cluster}:
//   P/streams/{sid}/generation-index/{offsetEnd19}/{generation19}
// A namespace apart from the generation-0 offset index so that a resolve scan sees higher generations covering an
// offset without paging through every generation-0 entry of their range. Keys sort by offsetEnd, then generation.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { decodeKeyComponent } from "../identity/key-component.js";
import { pad19, parsePad19 } from "../identity/pad19.js";
import type { OffsetIndexKeyLocation } from "./stream-key-parsers.js";
import { streamPrefix } from "./stream-keys.js";

/** Fixed path segment of the generation index (durable; never rename). */
const GENERATION_INDEX_SEGMENT = "generation-index";

/** `P/streams/{sid}/generation-index/`: scan prefix of a stream's generation index. */
export function generationIndexPrefix(prefix: string, streamId: string): string {
  return `${streamPrefix(prefix, streamId)}${GENERATION_INDEX_SEGMENT}/`;
}

/** `P/streams/{sid}/generation-index/{offsetEnd19}/{generation19}`: a GenerationIndexEntry. */
export function generationIndexKey(prefix: string, streamId: string, offsetEnd: number, generation: number): string {
  return `${generationIndexPrefix(prefix, streamId)}${pad19(offsetEnd)}/${pad19(generation)}`;
}

/** Inclusive scan start for generation index entries with `offsetEnd >= minOffsetEnd`. */
export function generationIndexScanStartKey(prefix: string, streamId: string, minOffsetEnd: number): string {
  return `${generationIndexPrefix(prefix, streamId)}${pad19(minOffsetEnd)}`;
}

/** Parses `P/streams/{sid}/generation-index/{offsetEnd19}/{generation19}` (DECODE_ERROR otherwise). */
export function parseGenerationIndexKey(key: string): OffsetIndexKeyLocation {
  const parts = key.split("/");
  const fail = (reason: string, cause?: unknown): NereusError =>
    new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not a generation index key: ${reason}`, {
      cause,
    });
  if (
    parts.length !== 9 ||
    parts[0] !== "" ||
    parts[1] !== "nereus" ||
    parts[2] !== "clusters" ||
    parts[4] !== "streams" ||
    parts[6] !== GENERATION_INDEX_SEGMENT
  ) {
    throw fail("expected /nereus/clusters/{cluster}/streams/{sid}/generation-index/{offsetEnd19}/{generation19}");
  }
  try {
    return {
      cluster: decodeKeyComponent(parts[3] ?? ""),
      streamId: decodeKeyComponent(parts[5] ?? ""),
      offsetEnd: parsePad19(parts[7] ?? ""),
      generation: parsePad19(parts[8] ?? ""),
    };
  } catch (cause) {
    throw fail("bad component", cause);
  }
}
