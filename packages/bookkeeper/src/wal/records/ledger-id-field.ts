// Ledger ids in record payloads: BookKeeper ledger ids are int64 (non-negative), wider than a safe JS number, so
// they travel as `bigint` and are written as two big-endian u32 halves (= one u64).
import type { ByteReader, ByteWriter } from "@nereus/core";
import { checkLedgerId } from "./bookkeeper-wal-keys.js";

/** Writes `ledgerId` (0 .. 2^63-1) as a big-endian u64. */
export function writeLedgerId(writer: ByteWriter, ledgerId: bigint): ByteWriter {
  checkLedgerId(ledgerId);
  return writer.writeU32(Number(ledgerId >> 32n)).writeU32(Number(ledgerId & 0xffff_ffffn));
}

/** Reads a ledger id written by `writeLedgerId`; the caller validates the range (top bit must be clear). */
export function readLedgerId(reader: ByteReader, field: string): bigint {
  const high = reader.readU32(`${field}.high`);
  const low = reader.readU32(`${field}.low`);
  return (BigInt(high) << 32n) | BigInt(low);
}

/** True for a valid BookKeeper ledger id. */
export function isLedgerId(value: unknown): value is bigint {
  return typeof value === "bigint" && value >= 0n && value < 1n << 63n;
}
