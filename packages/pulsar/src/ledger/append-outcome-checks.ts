// How a managed ledger judges what the store answered one of its appends: a result that is not exactly the one entry
// admitted at its offset is corruption; which store failures fail the ledger for good; and how long an uncertain
// append waits for its recovery verdict. No I/O.
import { type AppendResult, ErrorCode, NereusError } from "@nereus/core";
import type { AppendVerdict } from "./recover-append-verdict.js";

const CORRUPTION: ReadonlySet<string> = new Set([
  ErrorCode.METADATA_INVARIANT_VIOLATION,
  ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
  ErrorCode.OBJECT_CHECKSUM_MISMATCH,
  ErrorCode.DECODE_ERROR,
]);

/** True for a store failure that means the stored data or its metadata cannot be trusted. */
export function isCorruption(error: unknown): boolean {
  return NereusError.is(error) && CORRUPTION.has(error.code);
}

/**
 * The error to fail the ledger of `topic` with when `result` is not exactly the one entry of `bytes` bytes admitted
 * at offset `expected`; undefined when it is.
 */
export function unexpectedAppendResult(
  topic: string,
  result: AppendResult,
  expected: number,
  bytes: number,
): NereusError | undefined {
  if (
    result.startOffset === expected &&
    result.endOffset === expected + 1 &&
    result.entryCount === 1 &&
    result.recordCount === 1 &&
    result.logicalBytes === bytes &&
    result.generation === 0
  ) {
    return undefined;
  }
  return new NereusError(
    ErrorCode.METADATA_INVARIANT_VIOLATION,
    `topic ${topic}: an entry admitted at ${String(expected)} (${String(bytes)} bytes) committed as [${String(result.startOffset)}, ${String(result.endOffset)}) with ${String(result.logicalBytes)} bytes`,
  );
}

/** The verdict, or undefined when `waitMs` passed first (the recovery goes on). */
export async function verdictWithin(
  verdict: Promise<AppendVerdict>,
  waitMs: number,
): Promise<AppendVerdict | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), waitMs);
  });
  try {
    return await Promise.race([verdict, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
