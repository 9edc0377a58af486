// Codec of the CursorStateRecord record (first signature; the real layout follows).
import { ErrorCode, NereusError } from "@nereus/core";
import type { RecordCodec } from "@nereus/core/internal";
import type { CursorStateRecord } from "../domain/cursor-records.js";

const notYet = (): never => {
  throw new NereusError(ErrorCode.UNSUPPORTED_FORMAT, "cursorStateCodec is not implemented yet");
};

/** Codec of {@link CursorStateRecord}; `decode` checks the record against its key. */
export const cursorStateCodec: RecordCodec<CursorStateRecord> = {
  recordType: "CursorState",
  schemaVersion: 1,
  encode: notYet,
  decode: notYet,
};
