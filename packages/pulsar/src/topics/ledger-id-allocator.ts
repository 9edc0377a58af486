// Hands out virtual ledger ids to new topic incarnations: one compare-and-swap on P/pulsar/ledger-ids per id, so an
// id is never handed out twice, across brokers and restarts. An id whose creation lost its race, or whose CAS response
// was lost, is skipped (gaps are allowed, reuse never). Allocation is serialized in this process.
//
// The ids are 2^62 + n * 1024 (n = 0, 1, ... 2^52 - 1). Every MessageId carries the ledger id as an int64, and
// clients that hold int64 values as JavaScript numbers (pulsar-flex) round them to the nearest double — in
// [2^62, 2^63) doubles are 1024 apart, so only multiples of 1024 come back unchanged in their acks, seeks and
// redelivery requests. The counter record keeps its meaning (the smallest id not handed out or skipped); allocation
// rounds it up to the next such multiple and stores that id + 1.
import { ErrorCode, MetadataAmbiguousError, type MetadataStore, NereusError, type TxnRequest } from "@nereus/core";
import type { RecordCodec } from "@nereus/core/internal";
import { type LedgerIdCounter, ledgerIdCounterCodec } from "./ledger-id-counter-codec.js";
import type { PulsarKeyspace } from "./pulsar-keys.js";
import { LEDGER_ID_STEP, MAX_ALLOCATED_LEDGER_ID, MIN_VIRTUAL_LEDGER_ID } from "./pulsar-topic.js";

const MAX_CAS_ATTEMPTS = 64;

/** Durable allocator of virtual ledger ids. */
export class LedgerIdAllocator {
  readonly #metadata: MetadataStore;
  readonly #key: string;
  readonly #codec: RecordCodec<LedgerIdCounter>;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(metadata: MetadataStore, keyspace: PulsarKeyspace) {
    this.#metadata = metadata;
    this.#key = keyspace.ledgerIdsKey();
    this.#codec = ledgerIdCounterCodec(this.#key);
  }

  /**
   * A ledger id no incarnation has had (one CAS): 2^62 + n * 1024, exactly representable as a double.
   * METADATA_CONDITION_FAILED (retryable) after too much contention; METADATA_LIMIT_EXCEEDED once every such id up to
   * 2^63 - 1024 is used.
   */
  allocate(signal?: AbortSignal): Promise<bigint> {
    const result = this.#tail.then(() => this.#allocate(signal));
    this.#tail = result.catch(() => undefined);
    return result;
  }

  async #allocate(signal?: AbortSignal): Promise<bigint> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const stored = await this.#metadata.get(this.#key, { signal });
      const next = allocatableAtOrAbove(
        stored === undefined ? MIN_VIRTUAL_LEDGER_ID : this.#codec.decode(stored.value, stored.key).nextLedgerId,
      );
      if (next > MAX_ALLOCATED_LEDGER_ID) {
        throw new NereusError(ErrorCode.METADATA_LIMIT_EXCEEDED, "every virtual ledger id has been allocated", {
          retryable: false,
        });
      }
      const request: TxnRequest = {
        compares: [{ key: this.#key, modRevision: stored?.modRevision ?? 0 }],
        writes: [{ type: "put", key: this.#key, value: this.#codec.encode({ nextLedgerId: next + 1n }) }],
      };
      try {
        if ((await this.#metadata.txn(request, { signal })).succeeded) return next;
      } catch (error) {
        // A lost response may have advanced the counter: read it again (`next` is then skipped, never reused).
        if (!MetadataAmbiguousError.isAmbiguous(error)) throw error;
      }
    }
    throw new NereusError(ErrorCode.METADATA_CONDITION_FAILED, "could not allocate a virtual ledger id (contention)", {
      retryable: true,
    });
  }
}

/** The smallest id 2^62 + n * 1024 at or above `id` (which is at least 2^62). */
function allocatableAtOrAbove(id: bigint): bigint {
  const steps = (id - MIN_VIRTUAL_LEDGER_ID + LEDGER_ID_STEP - 1n) / LEDGER_ID_STEP;
  return MIN_VIRTUAL_LEDGER_ID + steps * LEDGER_ID_STEP;
}
