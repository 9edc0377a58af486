// Argument checks shared by the MetadataStore implementations (etcd, SQLite, the in-memory reference store), run before any I/O so every store rejects the same
// requests with the same errors: keys are non-empty well-formed strings (a lone surrogate has no UTF-8 form and would
// silently collide with U+FFFD), scans have a positive integer limit, txns respect etcd's per-list operation cap
// and never write one key twice.
import { DURABILITY_GATE_WORDS, type DurabilityGate, type DurabilityGateAccelerations } from "./durability-gate.js";
import { isValueCompare, type ScanOptions, type TxnRequest } from "./metadata-store.js";
import { MetadataStoreErrors } from "./metadata-store-errors.js";

/** etcd's default `--max-txn-ops`: compares, writes and `readOnFailure` may each hold at most this many entries. */
export const MAX_TXN_OPERATIONS = 128;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Throws `INVALID_ARGUMENT` for anything that is not a valid request; returns normally otherwise. */
export const checkMetadataRequest = {
  key(key: string): void {
    if (typeof key !== "string" || key.length === 0 || LONE_SURROGATE.test(key)) {
      throw MetadataStoreErrors.invalid("metadata key must be a non-empty well-formed string");
    }
  },

  keys(keys: readonly string[]): void {
    for (const key of keys) checkMetadataRequest.key(key);
  },

  prefix(prefix: string): void {
    if (typeof prefix !== "string" || LONE_SURROGATE.test(prefix)) {
      throw MetadataStoreErrors.invalid("metadata prefix must be a well-formed string");
    }
  },

  scan(prefix: string, options: ScanOptions): void {
    checkMetadataRequest.prefix(prefix);
    if (!Number.isSafeInteger(options.limit) || options.limit < 1) {
      throw MetadataStoreErrors.invalid(`scan limit must be a positive integer, got ${String(options.limit)}`);
    }
    if (options.startAt !== undefined) checkMetadataRequest.key(options.startAt);
    if (options.startAfter !== undefined) checkMetadataRequest.key(options.startAfter);
  },

  /**
   * A txn's durability gate: a promise, and when its accelerations offer shared words, words of the documented size
   * with a positive sequence.
   */
  gate(gate: DurabilityGate): void {
    if (
      typeof gate !== "object" ||
      gate === null ||
      typeof (gate.durable as { then?: unknown } | undefined)?.then !== "function"
    ) {
      throw MetadataStoreErrors.invalid("txn gate needs a durable promise");
    }
    const accelerations = gate.accelerations as DurabilityGate["accelerations"] | null;
    if (accelerations === undefined) return;
    if (typeof accelerations !== "object" || accelerations === null)
      throw MetadataStoreErrors.invalid("txn gate accelerations must be an object");
    const shared = accelerations.shared as DurabilityGateAccelerations["shared"] | null;
    if (shared === undefined) return;
    if (typeof shared !== "object" || shared === null)
      throw MetadataStoreErrors.invalid("txn gate shared words must be an object");
    if (
      !(shared.words instanceof SharedArrayBuffer) ||
      shared.words.byteLength < DURABILITY_GATE_WORDS * 8 ||
      shared.words.byteLength % 8 !== 0
    ) {
      throw MetadataStoreErrors.invalid(
        `txn gate words must be a SharedArrayBuffer of a multiple of 8 bytes, at least ${String(DURABILITY_GATE_WORDS * 8)}`,
      );
    }
    if (!Number.isSafeInteger(shared.sequence) || shared.sequence < 1) {
      throw MetadataStoreErrors.invalid(`txn gate sequence must be a positive integer, got ${String(shared.sequence)}`);
    }
  },

  txn(request: TxnRequest): void {
    if (request.after !== undefined) checkMetadataRequest.gate(request.after);
    const readOnFailure = request.readOnFailure ?? [];
    for (const list of [request.compares, request.writes, readOnFailure]) {
      if (list.length > MAX_TXN_OPERATIONS) {
        throw MetadataStoreErrors.limitExceeded(
          `txn lists hold at most ${MAX_TXN_OPERATIONS} entries, got ${list.length}`,
        );
      }
    }
    for (const compare of request.compares) {
      checkMetadataRequest.key(compare.key);
      if (isValueCompare(compare)) {
        if (!(compare.value instanceof Uint8Array))
          throw MetadataStoreErrors.invalid(`compare value of ${compare.key} must be a Uint8Array`);
        continue;
      }
      if (!Number.isSafeInteger(compare.modRevision) || compare.modRevision < 0) {
        throw MetadataStoreErrors.invalid(
          `compare modRevision must be a non-negative integer, got ${String(compare.modRevision)}`,
        );
      }
    }
    const written = new Set<string>();
    for (const write of request.writes) {
      checkMetadataRequest.key(write.key);
      if (written.has(write.key)) throw MetadataStoreErrors.invalid(`txn writes key ${write.key} twice`);
      written.add(write.key);
      if (write.type === "put" && !(write.value instanceof Uint8Array)) {
        throw MetadataStoreErrors.invalid("put value must be a Uint8Array");
      }
      if (write.type === "put" && write.leaseId !== undefined && typeof write.leaseId !== "string") {
        throw MetadataStoreErrors.invalid("put leaseId must be a string");
      }
    }
    checkMetadataRequest.keys(readOnFailure);
  },

  ttl(ttlMs: number): void {
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
      throw MetadataStoreErrors.invalid(`lease ttlMs must be a positive number, got ${String(ttlMs)}`);
    }
  },
} as const;
