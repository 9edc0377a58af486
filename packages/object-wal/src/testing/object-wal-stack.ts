// Test harness of the Object WAL profiles over one metadata store and one object store (a fresh cluster name per
// harness, so tests can share a real etcd / S3 bucket): opens "processes" (an ObjectWalRuntime plus a StreamStore
// with the same writer id), builds standalone materialization workers, injects faults through wrappers around the
// real stores, and reads the durable state back for assertions. Test-only.
import { randomBytes } from "node:crypto";
import {
  createStreamStore,
  type AppendBatch,
  type GenerationIndexEntry,
  type MetadataStore,
  type ObjectStore,
  type OffsetIndexEntry,
  type ReadResult,
  type StreamHead,
  type StreamStore,
  type StreamStoreOptions,
} from "@nereus/core";
import { StreamKeyspace, streamPrefix } from "@nereus/core/internal";
import { MaterializationWorker, type MaterializationWorkerOptions } from "../generations/materialization-worker.js";
import { ObjectWalReader } from "../reader/object-wal-reader.js";
import { objectProtectionsPrefix, objectKeyHash, physicalObjectRootKey } from "../roots/physical-object-keys.js";
import { physicalObjectRootCodec } from "../roots/physical-object-root-codec.js";
import type { PhysicalObjectRoot } from "../roots/physical-object-records.js";
import {
  createObjectWalRuntime,
  type ObjectWalRuntime,
  type ObjectWalRuntimeOptions,
} from "../runtime/create-object-wal-runtime.js";
import { FaultInjectingMetadataStore } from "./fault-injecting-metadata-store.js";
import { FaultInjectingObjectStore } from "./fault-injecting-object-store.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One "process": a runtime and the stream store wired to it. */
export interface ObjectWalProcess {
  readonly runtime: ObjectWalRuntime;
  readonly store: StreamStore;
}

export interface OpenProcessOptions {
  readonly writerId?: string;
  readonly runtime?: Partial<ObjectWalRuntimeOptions>;
  readonly store?: Partial<StreamStoreOptions>;
}

export class ObjectWalStack implements AsyncDisposable {
  readonly cluster: string;
  readonly keyspace: StreamKeyspace;
  /** The wrapped stores every process of this harness uses (faults, counters). */
  readonly metadata: FaultInjectingMetadataStore;
  readonly objects: FaultInjectingObjectStore;
  readonly #processes: ObjectWalProcess[] = [];
  readonly #workers: MaterializationWorker[] = [];

  constructor(metadata: MetadataStore, objectStore: ObjectStore, cluster = `owal-${randomBytes(6).toString("hex")}`) {
    this.cluster = cluster;
    this.keyspace = new StreamKeyspace(cluster);
    this.metadata = new FaultInjectingMetadataStore(metadata);
    this.objects = new FaultInjectingObjectStore(objectStore);
  }

  /** Opens a process. The runtime's worker is not started (tests drive it with `runOnce`/`runStream`). */
  open(options: OpenProcessOptions = {}): ObjectWalProcess {
    const writerId = options.writerId ?? "broker-1";
    const runtime = createObjectWalRuntime({
      objectStore: this.objects,
      metadata: this.metadata,
      cluster: this.cluster,
      writerId,
      flush: { lingerMs: 2 },
      ...options.runtime,
    });
    const store = createStreamStore({
      metadata: this.metadata,
      cluster: this.cluster,
      writerId,
      ...runtime.storeOptions(),
      ...options.store,
    });
    const process = { runtime, store };
    this.#processes.push(process);
    return process;
  }

  /** A standalone materialization worker over this harness's stores. */
  worker(options: Partial<MaterializationWorkerOptions> = {}): MaterializationWorker {
    const reader = new ObjectWalReader({ objectStore: this.objects });
    const worker = new MaterializationWorker({
      metadata: this.metadata,
      objectStore: this.objects,
      cluster: this.cluster,
      workerId: options.workerId ?? "worker",
      readers: () => reader,
      ...options,
    });
    this.#workers.push(worker);
    return worker;
  }

  async head(streamId: string): Promise<StreamHead> {
    const stored = await this.metadata.get(this.keyspace.headKey(streamId));
    if (stored === undefined) throw new Error(`no head for ${streamId}`);
    return this.keyspace.decodeHead(stored).head;
  }

  /** Generation-0 index entries of the stream, in key order. */
  async generationZero(streamId: string): Promise<OffsetIndexEntry[]> {
    const page = await this.metadata.scan(this.keyspace.indexPrefix(streamId), { limit: 10_000 });
    return page.items.map((item) => this.keyspace.decodeIndex(item));
  }

  /** Generation index entries (every state), in key order. */
  async generations(streamId: string): Promise<GenerationIndexEntry[]> {
    const page = await this.metadata.scan(this.keyspace.generationIndexPrefix(streamId), { limit: 10_000 });
    return page.items.map((item) => this.keyspace.decodeGenerationIndex(item));
  }

  /** Number of commit intents stored for the stream (reachable or not). */
  async intentCount(streamId: string): Promise<number> {
    const page = await this.metadata.scan(`${streamPrefix(this.keyspace.prefix, streamId)}commit-log/`, {
      limit: 10_000,
    });
    return page.items.length;
  }

  async root(objectKey: string): Promise<PhysicalObjectRoot | undefined> {
    const key = physicalObjectRootKey(this.cluster, objectKeyHash(objectKey));
    const stored = await this.metadata.get(key);
    return stored === undefined ? undefined : physicalObjectRootCodec.decode(stored.value, key);
  }

  async protectionCount(objectKey: string): Promise<number> {
    const page = await this.metadata.scan(objectProtectionsPrefix(this.cluster, objectKeyHash(objectKey)), {
      limit: 1000,
    });
    return page.items.length;
  }

  /** Reads the whole stream from `from` (following nextOffset) as [offset, recordCount, text] triples. */
  async readAll(store: StreamStore, streamId: string, from = 0): Promise<Array<[number, number, string]>> {
    const result: Array<[number, number, string]> = [];
    let offset = from;
    for (;;) {
      const read: ReadResult = await store.read(streamId, offset);
      for (const entry of read.entries) result.push([entry.offset, entry.recordCount, decoder.decode(entry.payload)]);
      offset = read.nextOffset;
      if (read.endOfStream) return result;
    }
  }

  /** Replaces the stored bytes of `objectKey` with a copy that has one byte flipped at `at`. */
  async corruptObject(objectKey: string, at: number): Promise<void> {
    const bytes = await this.objects.inner.get(objectKey);
    bytes[at] = (bytes[at] ?? 0) ^ 0x01;
    await this.objects.inner.deleteMany([objectKey]);
    await this.objects.inner.putIfAbsent(objectKey, bytes);
  }

  async dispose(): Promise<void> {
    for (const worker of this.#workers.splice(0)) await worker.close();
    for (const { runtime, store } of this.#processes.splice(0)) {
      await store.close();
      await runtime.close();
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}

/** A batch of opaque entries, one per text. */
export function opaque(...texts: string[]): AppendBatch {
  return {
    payloadFormat: "OPAQUE_RECORD_BATCH",
    entries: texts.map((value) => ({ payload: encoder.encode(value), recordCount: 1 })),
  };
}

/** A batch of ranged (Kafka-like) entries: [text, recordCount] pairs. */
export function ranged(...entries: ReadonlyArray<readonly [string, number]>): AppendBatch {
  return {
    payloadFormat: "KAFKA_RECORD_BATCH",
    entries: entries.map(([value, recordCount]) => ({ payload: encoder.encode(value), recordCount })),
  };
}
