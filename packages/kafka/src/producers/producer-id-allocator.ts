// Hands out producer ids for InitProducerId. Ids come from blocks reserved durably in metadata (one CAS per
// block on P/kafka/producer-ids), so an id is never handed out twice, across restarts and brokers. Allocation is
// serialized in this process; ids of a block left unused when the process stops are skipped.
import { ErrorCode, type MetadataStore, NereusError } from "@nereus/core";
import { type RecordCodec } from "@nereus/core/internal";
import type { KafkaKeyspace } from "../topics/kafka-keys.js";
import { type ProducerIdBlock, producerIdBlockCodec } from "./producer-id-block-codec.js";

/** Default ids per reserved block. */
export const DEFAULT_PRODUCER_ID_BLOCK_SIZE = 1000;
const MAX_CAS_ATTEMPTS = 64;

/** Durable producer-id allocator. */
export class ProducerIdAllocator {
  readonly #metadata: MetadataStore;
  readonly #key: string;
  readonly #codec: RecordCodec<ProducerIdBlock>;
  readonly #blockSize: number;
  #next = 0;
  #limit = 0;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(metadata: MetadataStore, keyspace: KafkaKeyspace, blockSize = DEFAULT_PRODUCER_ID_BLOCK_SIZE) {
    if (!Number.isSafeInteger(blockSize) || blockSize < 1) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `producer id block size must be a positive integer, got ${String(blockSize)}`,
      );
    }
    this.#metadata = metadata;
    this.#key = keyspace.producerIdsKey();
    this.#codec = producerIdBlockCodec(this.#key);
    this.#blockSize = blockSize;
  }

  /** The next unused producer id (reserves a new block when the current one is used up). */
  allocate(signal?: AbortSignal): Promise<bigint> {
    const result = this.#tail.then(async () => {
      if (this.#next >= this.#limit) await this.#reserveBlock(signal);
      const id = this.#next;
      this.#next += 1;
      return BigInt(id);
    });
    this.#tail = result.catch(() => undefined);
    return result;
  }

  async #reserveBlock(signal?: AbortSignal): Promise<void> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const stored = await this.#metadata.get(this.#key, { signal });
      const start = stored === undefined ? 0 : this.#codec.decode(stored.value, stored.key).nextProducerId;
      const end = start + this.#blockSize;
      const result = await this.#metadata.txn(
        {
          compares: [{ key: this.#key, modRevision: stored?.modRevision ?? 0 }],
          writes: [{ type: "put", key: this.#key, value: this.#codec.encode({ nextProducerId: end }) }],
        },
        { signal },
      );
      if (result.succeeded) {
        this.#next = start;
        this.#limit = end;
        return;
      }
    }
    throw new NereusError(ErrorCode.METADATA_CONDITION_FAILED, "could not reserve a producer id block (contention)", {
      retryable: true,
    });
  }
}
