// An append batch after step 0 of the pipeline checked it (append/validate-batch.ts), with its totals. A value
// type shared by the validation step, the lanes that queue it and the pipeline that writes it; no logic here.
import type { AppendEntry, PayloadFormat } from "./append-types.js";

/** A batch that passed validation, with its totals. Entries are still the caller's (not yet frozen). */
export interface ValidatedBatch {
  readonly payloadFormat: PayloadFormat;
  readonly entries: readonly AppendEntry[];
  readonly recordCount: number;
  readonly entryCount: number;
  readonly logicalBytes: number;
  /** The caller handed its payloads over (`AppendBatch.handOverPayloads`): nobody modifies them any more. */
  readonly handedOver: boolean;
}
