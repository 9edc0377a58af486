// Deterministic identity of one WAL object from the writer identity, the process run and the flush sequence
// (docs/architecture.md §8.3): the id written into the object (`wo-{runId}-{sequence19}`) and its store key
//   {cluster}/wal/v1/{yyyy}/{MM}/{dd}/{writerIdHash}/{runId}/{sequence19}.nrs
// The date (UTC, from the flush's createdAt) is placement only. Every flush consumes a fresh sequence, so a key is
// never reused by this run, and the 128-bit random run id keeps runs apart; a retried upload of the same flush
// reuses its key and bytes.
import { randomBytes } from "node:crypto";
import { base32LowerNoPad, encodeKeyComponent, pad19, sha256 } from "@nereus/core/internal";

const encoder = new TextEncoder();

export interface WalObjectIdentity {
  /** NRS1 `attemptKey`; slice ids derive from it. */
  readonly objectId: string;
  /** Store-relative key. */
  readonly objectKey: string;
  readonly sequence: number;
}

/** A fresh process run id: 128 random bits, base32 (26 characters, a raw-safe key component). */
export function newProcessRunId(): string {
  return base32LowerNoPad(randomBytes(16));
}

/** The last writer id hashed and its hash (a process has one writer id: every object and attempt key reuses it). */
let lastWriterIdHash: { readonly writerId: string; readonly hash: string } | undefined;

/** base32(sha256(writerId)): the writer's key component (52 characters). */
export function writerIdHash(writerId: string): string {
  if (lastWriterIdHash?.writerId !== writerId)
    lastWriterIdHash = { writerId, hash: base32LowerNoPad(sha256(encoder.encode(writerId))) };
  return lastWriterIdHash.hash;
}

export interface WalObjectIdentityInput {
  readonly cluster: string;
  readonly writerId: string;
  readonly processRunId: string;
  readonly sequence: number;
  readonly createdAtMillis: number;
}

/** The id and key of flush `sequence` of this run. Pure. */
export function walObjectIdentity(input: WalObjectIdentityInput): WalObjectIdentity {
  const sequence = pad19(input.sequence);
  const date = new Date(input.createdAtMillis);
  const yyyy = String(date.getUTCFullYear()).padStart(4, "0");
  const mm = String(date.getUTCMonth() + 1).padStart(2, "0");
  const dd = String(date.getUTCDate()).padStart(2, "0");
  const run = encodeKeyComponent(input.processRunId);
  return {
    objectId: `wo-${run}-${sequence}`,
    objectKey: `${encodeKeyComponent(input.cluster)}/wal/v1/${yyyy}/${mm}/${dd}/${writerIdHash(input.writerId)}/${run}/${sequence}.nrs`,
    sequence: input.sequence,
  };
}
