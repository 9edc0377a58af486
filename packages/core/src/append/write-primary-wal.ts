// Pipeline step 4: freeze the exact bytes with the provider's `prepare` (no I/O) and write them with `persist`
// (the only physical write of an append). The result is a durable physical target, not yet a committed range.
// Checks the provider kept the frozen shape: it may never change counts, bytes or the kind of target.
import type { AppendEntry, PayloadFormat } from "../domain/append-types.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { PersistedWrite, PreparedWrite, WalWriter } from "../spi/wal.js";
import { TARGET_TYPE_OF_WAL } from "../profiles/provider-registry.js";

export interface PrimaryWalWriteInput {
  readonly writer: WalWriter;
  readonly streamId: string;
  readonly attemptId: string;
  readonly writerId: string;
  readonly writerEpoch: number;
  readonly expectedStartOffset: number;
  readonly payloadFormat: PayloadFormat;
  readonly entries: readonly AppendEntry[];
  /** Every payload was handed over by its caller (see `WalWriteRequest.payloadsHandedOver`). */
  readonly payloadsHandedOver: boolean;
  readonly recordCount: number;
  readonly logicalBytes: number;
  readonly signal: AbortSignal;
}

/** Prepares and persists one attempt. Provider errors propagate unchanged (they happen before the head CAS). */
export async function writePrimaryWal(input: PrimaryWalWriteInput): Promise<PersistedWrite> {
  const prepared = input.writer.prepare({
    streamId: input.streamId,
    attemptId: input.attemptId,
    writerId: input.writerId,
    writerEpoch: input.writerEpoch,
    expectedStartOffset: input.expectedStartOffset,
    payloadFormat: input.payloadFormat,
    entries: input.entries,
    ...(input.payloadsHandedOver ? { payloadsHandedOver: true } : {}),
  });
  checkPrepared(input, prepared);
  const persisted = await input.writer.persist(prepared, { signal: input.signal });
  if (persisted.prepared !== prepared) throw misbehaved(input, "persist returned a different prepared write");
  const expectedType = TARGET_TYPE_OF_WAL[input.writer.walKind];
  if (persisted.readTarget.type !== expectedType) {
    throw misbehaved(input, `a ${input.writer.walKind} writer returned a ${persisted.readTarget.type} target`);
  }
  return persisted;
}

function checkPrepared(input: PrimaryWalWriteInput, prepared: PreparedWrite): void {
  if (
    prepared.entryCount !== input.entries.length ||
    prepared.recordCount !== input.recordCount ||
    prepared.logicalBytes !== input.logicalBytes
  ) {
    throw misbehaved(input, "prepare changed the entry count, record count or logical bytes of the batch");
  }
}

function misbehaved(input: PrimaryWalWriteInput, message: string): NereusError {
  return new NereusError(
    ErrorCode.PRIMARY_WAL_WRITE_FAILED,
    `stream ${input.streamId}: WAL writer misbehaved: ${message}`,
    {
      retryable: false,
    },
  );
}
