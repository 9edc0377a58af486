// Deterministic stream identity (docs/architecture.md §1): streamId = "s-" + base32lower_nopad(sha256(utf8(name))). The name is
// an opaque exact string (never trimmed or normalized); the head stores it so hash collisions are detectable.
import { base32LowerNoPad } from "../bytes/base32-lower-no-pad.js";
import { sha256 } from "../bytes/sha256.js";
import { isWellFormedString } from "../bytes/strict-utf8.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** Maximum UTF-8 length of a stream name. */
export const STREAM_NAME_MAX_BYTES = 1024;

const STREAM_ID_PATTERN = /^s-[a-z2-7]{52}$/;
const encoder = new TextEncoder();
/**
 * Recently derived ids by name. The id is a pure function of the name, and every head encode/decode re-derives it
 * to check the head, so a small memo keeps SHA-256 off the append path. Cleared when full (bounded memory).
 */
const RECENT_IDS_MAX = 1024;
const recentIds = new Map<string, string>();

function streamNameBytes(name: string): Uint8Array {
  if (typeof name !== "string" || name.length === 0) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "stream name must be a non-empty string");
  }
  if (!isWellFormedString(name)) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "stream name contains an unpaired UTF-16 surrogate");
  }
  const bytes = encoder.encode(name);
  if (bytes.length > STREAM_NAME_MAX_BYTES) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `stream name is ${String(bytes.length)} UTF-8 bytes; the maximum is ${String(STREAM_NAME_MAX_BYTES)}`,
    );
  }
  return bytes;
}

/** base32lower_nopad(sha256(utf8(name))): 52 characters. Throws INVALID_ARGUMENT like `streamIdFromName`. */
export function streamNameHash(name: string): string {
  return base32LowerNoPad(sha256(streamNameBytes(name)));
}

/**
 * The stream id of `name`: `"s-" + streamNameHash(name)` (54 characters, safe as a raw key component).
 * Throws `NereusError(INVALID_ARGUMENT)` when the name is empty, longer than 1024 UTF-8 bytes, or contains an
 * unpaired surrogate (such a string has no exact UTF-8 form, so two names could share one id).
 */
export function streamIdFromName(name: string): string {
  const known = recentIds.get(name);
  if (known !== undefined) return known;
  const id = `s-${streamNameHash(name)}`;
  if (recentIds.size >= RECENT_IDS_MAX) recentIds.clear();
  recentIds.set(name, id);
  return id;
}

/** True when `value` has the shape of a stream id (it does not prove which name it came from). */
export function isStreamId(value: string): boolean {
  return STREAM_ID_PATTERN.test(value);
}
