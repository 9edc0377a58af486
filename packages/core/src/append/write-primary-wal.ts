// Pipeline step 4: freeze the exact bytes with the provider's `prepare` (no I/O) and write them with `persist`
// (the only physical write of an append). The result is a durable physical target, not yet a committed range.
// Checks the provider kept the frozen shape: it may never change counts, bytes or the kind of target.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { PersistedWrite, PreparedWrite, WalWriteRequest, WalWriter } from "../spi/wal.js";
import { TARGET_TYPE_OF_WAL } from "../profiles/provider-registry.js";

export interface PrimaryWalWriteInput {
  readonly writer: WalWriter;
  /** What the writer freezes; `prepare` must report exactly `recordCount` and `logicalBytes` for it. */
  readonly request: WalWriteRequest;
  readonly recordCount: number;
  readonly logicalBytes: number;
  readonly signal: AbortSignal;
}

/** Prepares and persists one attempt. Provider errors propagate unchanged (they happen before the head CAS). */
export async function writePrimaryWal(input: PrimaryWalWriteInput): Promise<PersistedWrite> {
  const prepared = input.writer.prepare(input.request);
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
    prepared.entryCount !== input.request.entries.length ||
    prepared.recordCount !== input.recordCount ||
    prepared.logicalBytes !== input.logicalBytes
  ) {
    throw misbehaved(input, "prepare changed the entry count, record count or logical bytes of the batch");
  }
}

function misbehaved(input: PrimaryWalWriteInput, message: string): NereusError {
  return new NereusError(
    ErrorCode.PRIMARY_WAL_WRITE_FAILED,
    `stream ${input.request.streamId}: WAL writer misbehaved: ${message}`,
    {
      retryable: false,
    },
  );
}
