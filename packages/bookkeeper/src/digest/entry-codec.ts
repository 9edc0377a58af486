// The stored/transmitted form of a BookKeeper entry and of an explicit-LAC record:
//   entry = [ledgerId i64][entryId i64][lastAddConfirmed i64][length i64][digest D][payload]
//   lac   = [ledgerId i64][lac i64][digest D]
// (big-endian; the digest covers the header bytes then the payload). Packaging returns the header+digest as a
// fresh array and the payload by reference; unpacking returns the payload as a view into the body.
import { ErrorCode, NereusError } from "@nereus/core";
import type { DigestManager } from "./digest-manager.js";

/** Size of the entry header before the digest. */
export const ENTRY_HEADER_LENGTH = 32;
/** Size of the LAC record header before the digest. */
const LAC_HEADER_LENGTH = 16;

/** The header facts of an entry. */
export interface EntryHeader {
  readonly ledgerId: bigint;
  readonly entryId: number;
  /** The writer's LAC when the add was initiated (-1 when nothing was confirmed yet). */
  readonly lastAddConfirmed: number;
  /** Ledger length in bytes including this entry. */
  readonly length: number;
}

/** A verified entry: its header facts and its payload (a view into the received body). */
export interface UnpackedEntry extends EntryHeader {
  readonly payload: Uint8Array;
}

function writeHeader(view: DataView, header: EntryHeader): void {
  view.setBigInt64(0, header.ledgerId);
  view.setBigInt64(8, BigInt(header.entryId));
  view.setBigInt64(16, BigInt(header.lastAddConfirmed));
  view.setBigInt64(24, BigInt(header.length));
}

/** Packages an entry for an AddRequest body: `[header ‖ digest, payload]` (the payload is not copied). */
export function packageEntry(
  header: EntryHeader,
  payload: Uint8Array,
  digest: DigestManager,
): [Uint8Array, Uint8Array] {
  const head = new Uint8Array(ENTRY_HEADER_LENGTH + digest.length);
  writeHeader(new DataView(head.buffer), header);
  head.set(digest.compute([head.subarray(0, ENTRY_HEADER_LENGTH), payload]), ENTRY_HEADER_LENGTH);
  return [head, payload];
}

function mismatch(message: string, details: Record<string, unknown>): NereusError {
  return new NereusError(ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH, message, { retryable: false, details });
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

function safeNumber(value: bigint, field: string, details: Record<string, unknown>): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw mismatch(`entry ${field} ${String(value)} is outside the safe-integer range`, details);
  }
  return Number(value);
}

/**
 * Verifies and unpacks an entry body as the Java reader does: digest over header and payload, embedded ledger id
 * equal to `expected.ledgerId`, and embedded entry id equal to `expected.entryId` unless that is omitted (the
 * "last entry" read of -1). Any failure is PRIMARY_WAL_CHECKSUM_MISMATCH (not retryable on this replica).
 */
export function unpackEntry(
  body: Uint8Array,
  digest: DigestManager,
  expected: { readonly ledgerId: bigint; readonly entryId?: number },
): UnpackedEntry {
  const details = { ledgerId: String(expected.ledgerId), entryId: expected.entryId, digestType: digest.type };
  if (body.length < ENTRY_HEADER_LENGTH + digest.length) {
    throw mismatch(`entry body of ${String(body.length)} bytes is shorter than its header and digest`, details);
  }
  const header = body.subarray(0, ENTRY_HEADER_LENGTH);
  const payload = body.subarray(ENTRY_HEADER_LENGTH + digest.length);
  if (
    !equalBytes(
      digest.compute([header, payload]),
      body.subarray(ENTRY_HEADER_LENGTH, ENTRY_HEADER_LENGTH + digest.length),
    )
  ) {
    throw mismatch(`${digest.type} digest mismatch`, details);
  }
  const view = new DataView(body.buffer, body.byteOffset, ENTRY_HEADER_LENGTH);
  const ledgerId = view.getBigInt64(0);
  if (ledgerId !== expected.ledgerId) throw mismatch(`entry belongs to ledger ${String(ledgerId)}`, details);
  const entryId = safeNumber(view.getBigInt64(8), "entryId", details);
  if (expected.entryId !== undefined && entryId !== expected.entryId)
    throw mismatch(`entry carries id ${String(entryId)}`, details);
  return {
    ledgerId,
    entryId,
    lastAddConfirmed: safeNumber(view.getBigInt64(16), "lastAddConfirmed", details),
    length: safeNumber(view.getBigInt64(24), "length", details),
    payload,
  };
}

/** Packages an explicit-LAC record (WriteLacRequest body). */
export function packageLac(ledgerId: bigint, lac: number, digest: DigestManager): Uint8Array {
  const out = new Uint8Array(LAC_HEADER_LENGTH + digest.length);
  const view = new DataView(out.buffer);
  view.setBigInt64(0, ledgerId);
  view.setBigInt64(8, BigInt(lac));
  out.set(digest.compute([out.subarray(0, LAC_HEADER_LENGTH)]), LAC_HEADER_LENGTH);
  return out;
}

/** Verifies an explicit-LAC record and returns its LAC. Failures are PRIMARY_WAL_CHECKSUM_MISMATCH. */
export function unpackLac(body: Uint8Array, digest: DigestManager, ledgerId: bigint): number {
  const details = { ledgerId: String(ledgerId), digestType: digest.type };
  if (body.length < LAC_HEADER_LENGTH + digest.length)
    throw mismatch(`LAC record of ${String(body.length)} bytes is too short`, details);
  const header = body.subarray(0, LAC_HEADER_LENGTH);
  if (!equalBytes(digest.compute([header]), body.subarray(LAC_HEADER_LENGTH, LAC_HEADER_LENGTH + digest.length))) {
    throw mismatch(`${digest.type} LAC digest mismatch`, details);
  }
  const view = new DataView(body.buffer, body.byteOffset, LAC_HEADER_LENGTH);
  if (view.getBigInt64(0) !== ledgerId)
    throw mismatch(`LAC record belongs to ledger ${String(view.getBigInt64(0))}`, details);
  return safeNumber(view.getBigInt64(8), "lac", details);
}
