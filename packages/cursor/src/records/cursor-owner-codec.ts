// Codec of the CursorOwnerRecord record (first signature; the real layout follows).
import { ErrorCode, NereusError } from "@nereus/core";
import type { RecordCodec } from "@nereus/core/internal";
import type { CursorOwnerRecord } from "../domain/cursor-records.js";

const notYet = (): never => {
  throw new NereusError(ErrorCode.UNSUPPORTED_FORMAT, "cursorOwnerCodec is not implemented yet");
};

/** Codec of {@link CursorOwnerRecord}; `decode` checks the record against its key. */
export const cursorOwnerCodec: RecordCodec<CursorOwnerRecord> = {
  recordType: "CursorOwner",
  schemaVersion: 1,
  encode: notYet,
  decode: notYet,
};
