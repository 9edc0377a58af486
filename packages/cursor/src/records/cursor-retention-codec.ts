// Codec of the CursorRetentionRecord record (first signature; the real layout follows).
import { ErrorCode, NereusError } from "@nereus/core";
import type { RecordCodec } from "@nereus/core/internal";
import type { CursorRetentionRecord } from "../domain/cursor-records.js";

const notYet = (): never => {
  throw new NereusError(ErrorCode.UNSUPPORTED_FORMAT, "cursorRetentionCodec is not implemented yet");
};

/** Codec of {@link CursorRetentionRecord}; `decode` checks the record against its key. */
export const cursorRetentionCodec: RecordCodec<CursorRetentionRecord> = {
  recordType: "CursorRetention",
  schemaVersion: 1,
  encode: notYet,
  decode: notYet,
};
