// Parsers for the stream key layout of stream-keys.ts: they recover the dynamic components so record decoders
// can check a value against the key it was read from. Strict: a key that the builders could not have produced
// (wrong segments, non-canonical component, bad pad19) throws NereusError(DECODE_ERROR).
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { decodeKeyComponent } from "../identity/key-component.js";
import { parsePad19 } from "../identity/pad19.js";
import { StreamKeySegment } from "./stream-keys.js";

/** The cluster and stream a stream-scoped key belongs to. */
export interface StreamKeyLocation {
  readonly cluster: string;
  readonly streamId: string;
}

export interface CommitKeyLocation extends StreamKeyLocation {
  readonly commitId: string;
}

export interface OffsetIndexKeyLocation extends StreamKeyLocation {
  readonly offsetEnd: number;
  readonly generation: number;
}

/**
 * Parses `P/streams/{sid}/{tail...}` where `tail` lists the fixed segments after the stream id, `"*"` for a dynamic
 * one (returned raw, in order, in `rest`). `kind` names the key in errors ("a stream head").
 */
export function parseStreamScopedKey(
  key: string,
  kind: string,
  tail: readonly string[],
): { location: StreamKeyLocation; rest: string[] } {
  const parts = key.split("/");
  const fail = (reason: string, cause?: unknown): NereusError =>
    new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not ${kind} key: ${reason}`, { cause });
  const expectedLength = 6 + tail.length;
  if (parts.length !== expectedLength) throw fail(`expected ${String(expectedLength - 1)} segments`);
  if (
    parts[0] !== "" ||
    parts[1] !== StreamKeySegment.ROOT ||
    parts[2] !== StreamKeySegment.CLUSTERS ||
    parts[4] !== StreamKeySegment.STREAMS
  ) {
    throw fail("expected /nereus/clusters/{cluster}/streams/{sid}/...");
  }
  const rest: string[] = [];
  for (let index = 0; index < tail.length; index += 1) {
    const expected = tail[index];
    const actual = parts[6 + index] ?? "";
    if (expected === "*") rest.push(actual);
    else if (actual !== expected) throw fail(`expected segment ${String(expected)}`);
  }
  try {
    return {
      location: { cluster: decodeKeyComponent(parts[3] ?? ""), streamId: decodeKeyComponent(parts[5] ?? "") },
      rest,
    };
  } catch (cause) {
    throw fail("bad cluster or stream component", cause);
  }
}

function component(key: string, kind: string, value: string): string {
  try {
    return decodeKeyComponent(value);
  } catch (cause) {
    throw new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not ${kind} key: bad component`, {
      cause,
    });
  }
}

/** Parses `P/streams/{sid}/head`. */
export function parseStreamHeadKey(key: string): StreamKeyLocation {
  return parseStreamScopedKey(key, "a stream head", [StreamKeySegment.HEAD]).location;
}

/** Parses `P/streams/{sid}/commit-log/{commitId}`. */
export function parseCommitIntentKey(key: string): CommitKeyLocation {
  const { location, rest } = parseStreamScopedKey(key, "a commit intent", [StreamKeySegment.COMMIT_LOG, "*"]);
  return { ...location, commitId: component(key, "a commit intent", rest[0] ?? "") };
}

/** Parses `P/streams/{sid}/committed-appends/{commitId}`. */
export function parseReplayMarkerKey(key: string): CommitKeyLocation {
  const { location, rest } = parseStreamScopedKey(key, "a replay marker", [StreamKeySegment.COMMITTED_APPENDS, "*"]);
  return { ...location, commitId: component(key, "a replay marker", rest[0] ?? "") };
}

/** Parses `P/streams/{sid}/offset-index/{offsetEnd19}/{generation19}`. */
export function parseOffsetIndexKey(key: string): OffsetIndexKeyLocation {
  const { location, rest } = parseStreamScopedKey(key, "an offset index", [StreamKeySegment.OFFSET_INDEX, "*", "*"]);
  try {
    return { ...location, offsetEnd: parsePad19(rest[0] ?? ""), generation: parsePad19(rest[1] ?? "") };
  } catch (cause) {
    throw new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not an offset index key: bad pad19`, {
      cause,
    });
  }
}
