// What a SEND must satisfy before its entry is stored, checked without I/O: the entry's checksum matches
// (ChecksumError, which the client re-checks on its side), its MessageMetadata decodes, its message payload is no
// larger than the broker's maximum message size, and the command's message count is the one the metadata declares
// (a batch's numMessagesInBatch, else 1). Refusals other than the checksum are NotAllowedError: the message can never
// be stored as sent, so clients fail that message and go on instead of reconnecting to resend it.
import { NereusError } from "@nereus/core";
import { type EntryMetadata, parseEntryMetadata } from "../entries/entry-metadata.js";
import { type CommandSend, type FramePayload, ServerError } from "../protocol/index.js";
import type { ErrorReply } from "./error-replies.js";

/** A SEND that passed the checks (its entry's metadata), or the error it is answered with. */
export type SendCheck =
  { readonly ok: true; readonly entry: EntryMetadata } | { readonly ok: false; readonly reply: ErrorReply };

/** Checks a SEND carrying `payload` against the rules above; `maxMessageBytes` bounds the message payload. */
export function checkSend(command: CommandSend, payload: FramePayload, maxMessageBytes: number): SendCheck {
  if (!payload.checksumMatches) return refused(ServerError.ChecksumError, "checksum mismatch");
  let entry: EntryMetadata;
  try {
    entry = parseEntryMetadata(payload.entry);
  } catch (error) {
    const why = NereusError.is(error) ? error.message : String(error);
    return refused(ServerError.NotAllowedError, `the message metadata cannot be read: ${why}`);
  }
  const payloadBytes = payload.entry.length - entry.payloadOffset;
  if (payloadBytes > maxMessageBytes) {
    return refused(
      ServerError.NotAllowedError,
      `the message payload of ${String(payloadBytes)} bytes exceeds the maximum message size of ${String(maxMessageBytes)} bytes`,
    );
  }
  const declared = command.numMessages ?? 1;
  if (declared !== entry.numberOfMessages) {
    return refused(
      ServerError.NotAllowedError,
      `SEND declares ${String(declared)} message(s) but the entry's metadata holds ${String(entry.numberOfMessages)}`,
    );
  }
  return { ok: true, entry };
}

function refused(error: number, message: string): SendCheck {
  return { ok: false, reply: { error, message } };
}
