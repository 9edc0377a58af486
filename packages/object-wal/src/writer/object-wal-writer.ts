// The broker-level multi-stream Object WAL writer (walKind "OBJECT"; docs/architecture.md §8.3, §11 decision 5). `persist`
// enqueues a prepared append into the pending object; a flush (size, slice count or linger trigger) encodes ONE
// NRS1 object with one slice per stream-append, validates its key, length, checksum and manifest and does ONE
// create-only PUT under a deterministic key (writer identity + run + flush sequence) — with several slices, it
// creates the object's physical root (ACTIVE) meanwhile; then every member's persist resolves with its own
// OBJECT_SLICE target. Each slice then commits through its own stream's lane, session and head CAS in core: a member
// that fails later (fenced, conflict, crash) never affects the others, and its slice simply stays invisible.
// `protect` returns what the head transaction commits atomically: the root-revision compare and the REACHABLE_APPEND
// protection — for a single-slice object, whose root nobody else can create, a compare on the root's absence plus
// the root itself (one metadata transaction per append instead of two).
// Does not: touch heads, intents or indexes; delete objects; retry across flushes (a new persist of a failed
// attempt goes into a new object). Buffers: `prepare` copies the caller's payloads unless the request says they were
// handed over (then it keeps references; each byte is copied once, into the object, built in the store's
// `accelerations.allocateBody` memory when it offers one).
import {
  ErrorCode,
  NereusError,
  WAL_SPI_VERSION,
  crc32c,
  crc32cCombine,
  type AppendEntry,
  type DurabilityGate,
  type MetadataStore,
  type ObjectSliceTarget,
  type ObjectStore,
  type PersistedWrite,
  type PreparedWrite,
  type TargetProtection,
  type WalIoOptions,
  type WalWriteRequest,
  type WalWriter,
} from "@nereus/core";
import { clusterPrefix, commitIntentKey, raceAbort } from "@nereus/core/internal";
import { assertObjectKey } from "../object-keys/assert-object-key.js";
import { decodeWalManifest } from "../format/decode-wal-manifest.js";
import { decodeWalObjectFooter } from "../format/decode-wal-object-footer.js";
import { encodeWalObject } from "../format/encode-wal-object.js";
import { WAL_OBJECT_LAYOUT } from "../format/wal-object-layout.js";
import type { EncodedWalObject, WalSliceDescriptor } from "../format/wal-object-model.js";
import { objectKeyHash } from "../roots/physical-object-keys.js";
import type { PhysicalObjectRoot } from "../roots/physical-object-records.js";
import { PhysicalObjectRoots, type VersionedRoot } from "../roots/physical-object-roots.js";
import { resolveFlushPolicy, type FlushPolicy } from "./flush-policy.js";
import { uploadImmutableObject } from "./upload-immutable-object.js";
import { newProcessRunId, walObjectIdentity, writerIdHash, type WalObjectIdentity } from "./wal-object-naming.js";

const DEFAULT_FLUSH_TIMEOUT_MS = 30_000;
const DEFAULT_PUT_ATTEMPTS = 3;
const DEFAULT_ORPHAN_GRACE_MS = 24 * 60 * 60 * 1000;
/** Roots remembered for `protect` without a metadata read. */
const ROOT_CACHE_SIZE = 4096;
/** Fixed per-slice overhead of the size estimate (slice magic, ids, counts, checksum, manifest descriptor). */
const SLICE_OVERHEAD_BYTES = 160;

/** Test seams at the flush boundaries (a throw fails the whole flush, as a crash there would). */
export interface ObjectWalWriterHooks {
  /** After the object is encoded and validated, before its PUT (and, with several slices, its root). */
  readonly beforeUpload?: (objectKey: string) => Promise<void> | void;
  /** After the PUT (and a multi-slice object's root) succeeded, before members resolve. */
  readonly afterUpload?: (objectKey: string) => Promise<void> | void;
}

export interface ObjectWalWriterOptions {
  readonly objectStore: ObjectStore;
  /** Where physical roots are created (the same store the stream store commits to). */
  readonly metadata: MetadataStore;
  readonly cluster: string;
  /** This broker's identity (written into every object and its root). */
  readonly writerId: string;
  /** 128-bit random run id of this process (default: fresh). */
  readonly processRunId?: string;
  readonly flush?: Partial<FlushPolicy>;
  /** Deadline of one flush (encode, root, upload; default 30 s). */
  readonly flushTimeoutMs?: number;
  /** PUT transmissions per flush (default 3). */
  readonly putAttempts?: number;
  /** `orphanNotBefore = createdAt + orphanGraceMs` in roots (default 24 h). */
  readonly orphanGraceMs?: number;
  readonly clock?: () => number;
  readonly hooks?: ObjectWalWriterHooks;
}

/** Counters of one writer. */
export class ObjectWalWriterStats {
  /** Objects uploaded (flushes that completed). */
  objects = 0;
  /** `putIfAbsent` calls. */
  puts = 0;
  /** Slices (stream-appends) in uploaded objects. */
  slices = 0;
  /** Bytes of uploaded objects. */
  objectBytes = 0;
  /** Flushes that failed (every member rejected). */
  failedFlushes = 0;
  /** Uploads that met their key and proved the stored bytes ours. */
  recognisedOwnWrites = 0;
}

interface PreparedState {
  readonly prepared: PreparedWrite;
  /** Frozen copies of the entries. */
  readonly entries: readonly AppendEntry[];
  readonly estimatedBytes: number;
  result: PersistedWrite | undefined;
  inFlight: Promise<PersistedWrite> | undefined;
}

interface Member {
  readonly state: PreparedState;
  readonly resolve: (persisted: PersistedWrite) => void;
  readonly reject: (error: unknown) => void;
  detach: () => void;
}

class PendingObject {
  readonly members: Member[] = [];
  readonly streams = new Set<string>();
  bytes = 0;
  /** Linger elapsed while every upload slot was busy: upload as soon as one frees. */
  due = false;
  flushing = false;
  /** Cancels the pending linger trigger. */
  cancelLinger: (() => void) | undefined;

  add(member: Member): void {
    this.members.push(member);
    this.streams.add(member.state.prepared.request.streamId);
    this.bytes += member.state.estimatedBytes;
  }

  remove(member: Member): void {
    const index = this.members.indexOf(member);
    if (index < 0) return;
    this.members.splice(index, 1);
    this.streams.delete(member.state.prepared.request.streamId);
    this.bytes -= member.state.estimatedBytes;
  }
}

/**
 * The Object WAL writer. Invariants: `prepare` does no I/O; a prepared write persists into exactly one object
 * (persisting it again returns the same target); one flush = one object = one PUT transmission unless a retryable
 * failure forces a retransmission of the same bytes to the same key; at most one slice per stream per object; the
 * object's root exists before any member resolves (so before any head can name it).
 */
export class ObjectWalWriter implements WalWriter, AsyncDisposable {
  readonly spiVersion = WAL_SPI_VERSION;
  readonly walKind = "OBJECT" as const;
  readonly stats = new ObjectWalWriterStats();
  readonly writerId: string;
  readonly processRunId: string;
  readonly policy: FlushPolicy;
  readonly #store: ObjectStore;
  readonly #allocateBody: (length: number) => Uint8Array;
  readonly #metadata: MetadataStore;
  readonly #cluster: string;
  readonly #clusterPrefix: string;
  readonly #roots: PhysicalObjectRoots;
  readonly #clock: () => number;
  readonly #flushTimeoutMs: number;
  readonly #putAttempts: number;
  readonly #orphanGraceMs: number;
  readonly #hooks: ObjectWalWriterHooks;
  readonly #prepared = new WeakMap<PreparedWrite, PreparedState>();
  readonly #rootCache = new Map<string, VersionedRoot>();
  /** Roots of uploaded single-slice objects, created by their head transaction (`protected`: protect ran once). */
  readonly #uncreatedRoots = new Map<string, { readonly root: PhysicalObjectRoot; protected: boolean }>();
  readonly #closing = new AbortController();
  readonly #ready: PendingObject[] = [];
  readonly #flushes = new Set<Promise<void>>();
  #open: PendingObject | undefined;
  #inFlight = 0;
  #sequence = 0;
  #closed: Promise<void> | undefined;

  constructor(options: ObjectWalWriterOptions) {
    if (typeof options.writerId !== "string" || options.writerId.length === 0)
      throw invalid("writerId must be a non-empty string");
    if (typeof options.cluster !== "string" || options.cluster.length === 0)
      throw invalid("cluster must be a non-empty string");
    this.#store = options.objectStore;
    const accelerations = options.objectStore.accelerations;
    this.#allocateBody =
      accelerations?.allocateBody?.bind(accelerations) ?? ((length: number) => new Uint8Array(length));
    this.#metadata = options.metadata;
    this.#cluster = options.cluster;
    this.#clusterPrefix = clusterPrefix(options.cluster);
    this.#roots = new PhysicalObjectRoots(options.cluster);
    this.writerId = options.writerId;
    this.processRunId = options.processRunId ?? newProcessRunId();
    this.policy = resolveFlushPolicy(options.flush);
    this.#clock = options.clock ?? Date.now;
    this.#flushTimeoutMs = positive("flushTimeoutMs", options.flushTimeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS);
    this.#putAttempts = positive("putAttempts", options.putAttempts ?? DEFAULT_PUT_ATTEMPTS);
    this.#orphanGraceMs = options.orphanGraceMs ?? DEFAULT_ORPHAN_GRACE_MS;
    this.#hooks = options.hooks ?? {};
  }

  prepare(request: WalWriteRequest): PreparedWrite {
    if (request.entries.length === 0) throw invalid("a WAL write needs at least one entry");
    const handedOver = request.payloadsHandedOver === true;
    let checksum = 0;
    let logicalBytes = 0;
    let recordCount = 0;
    const entries: AppendEntry[] = request.entries.map((entry) => {
      const payload = handedOver ? entry.payload : entry.payload.slice();
      if (
        !Number.isInteger(entry.recordCount) ||
        entry.recordCount < 1 ||
        entry.recordCount > WAL_OBJECT_LAYOUT.maxEntryRecordCount
      ) {
        throw invalid(`entry record count must be an integer in [1, 2^31-1], got ${String(entry.recordCount)}`);
      }
      const payloadCrc32c = entry.payloadCrc32c;
      logicalBytes += payload.byteLength;
      recordCount += entry.recordCount;
      if (payloadCrc32c === undefined) {
        checksum = crc32c(payload, checksum);
        return { payload, recordCount: entry.recordCount };
      }
      // The caller's CRC of these bytes (the core validated its type): combined, not recomputed.
      checksum = crc32cCombine(checksum, payloadCrc32c, payload.byteLength);
      return { payload, recordCount: entry.recordCount, payloadCrc32c };
    });
    if (!Number.isSafeInteger(request.expectedStartOffset + recordCount)) throw invalid("offsets would exceed 2^53-1");
    const prepared: PreparedWrite = {
      request: { ...request, entries },
      physicalAttemptKey: `${writerIdHash(this.writerId)}/${this.processRunId}/${request.streamId}/${request.attemptId}`,
      entryCount: entries.length,
      recordCount,
      logicalBytes,
      payloadChecksum: checksum,
    };
    this.#prepared.set(prepared, {
      prepared,
      entries,
      estimatedBytes:
        logicalBytes +
        entries.length * WAL_OBJECT_LAYOUT.indexItemBytes +
        SLICE_OVERHEAD_BYTES +
        request.streamId.length * 2,
      result: undefined,
      inFlight: undefined,
    });
    return prepared;
  }

  async persist(prepared: PreparedWrite, options: WalIoOptions = {}): Promise<PersistedWrite> {
    const state = this.#prepared.get(prepared);
    if (state === undefined) throw invalid("persist needs a write prepared by this writer");
    if (state.result !== undefined) return state.result;
    this.#checkOpen();
    throwIfAborted(options.signal);
    let shared = state.inFlight;
    if (shared === undefined) {
      shared = this.#enqueue(state, options.signal);
      state.inFlight = shared;
      shared.then(
        (persisted) => {
          state.result = persisted;
        },
        () => {
          state.inFlight = undefined;
        },
      );
    }
    const signal = options.signal;
    return raceAbort(shared, signal, () => cancelled(signal as AbortSignal));
  }

  async protect(
    persisted: PersistedWrite,
    commitId: string,
    metadata: MetadataStore,
    options: WalIoOptions = {},
  ): Promise<TargetProtection> {
    const target = persisted.readTarget;
    if (target.type !== "OBJECT_SLICE" || target.objectType !== "MULTI_STREAM_WAL_OBJECT") {
      throw invalid(`the Object WAL writer protects its own MULTI_STREAM_WAL_OBJECT slices, not ${target.type}`);
    }
    const streamId = persisted.prepared.request.streamId;
    const request = {
      type: "REACHABLE_APPEND",
      streamId,
      ownerKey: commitIntentKey(this.#clusterPrefix, streamId, commitId),
    } as const;
    const uncreated = this.#uncreatedRoots.get(target.objectKey);
    if (uncreated !== undefined && !uncreated.protected) {
      // First protection of a single-slice object: nobody else names it, so its root is absent and this head
      // transaction creates it (a compare on absence, then the root and the protection).
      uncreated.protected = true;
      return this.#roots.creatingProtection(uncreated.root, request);
    }
    let versioned = this.#rootCache.get(target.objectKey);
    if (versioned === undefined) {
      versioned = await this.#roots.load(metadata, target.objectKey, options.signal);
      // A retry after a head transaction that did not commit: the root is still ours to create.
      if (versioned === undefined && uncreated !== undefined)
        return this.#roots.creatingProtection(uncreated.root, request);
      if (versioned === undefined) {
        throw new NereusError(
          ErrorCode.METADATA_CONDITION_FAILED,
          `WAL object ${target.objectKey} has no physical root; it may not be referenced`,
          {
            retryable: false,
          },
        );
      }
    }
    return this.#roots.protection(versioned, request);
  }

  /** Uploads the pending object now (tests, shutdown). Resolves when every started flush finished. */
  async flushNow(): Promise<void> {
    const open = this.#open;
    if (open !== undefined) this.#seal(open, true);
    await Promise.allSettled([...this.#flushes]);
  }

  /** Idempotent: uploads what is pending, waits for in-flight flushes; later persists fail STORAGE_CLOSED. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      await this.flushNow();
      this.#closing.abort(new NereusError(ErrorCode.STORAGE_CLOSED, "Object WAL writer closed", { retryable: false }));
    })();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #checkOpen(): void {
    if (this.#closed !== undefined)
      throw new NereusError(ErrorCode.STORAGE_CLOSED, "Object WAL writer closed", { retryable: false });
  }

  #enqueue(state: PreparedState, signal: AbortSignal | undefined): Promise<PersistedWrite> {
    return new Promise<PersistedWrite>((resolve, reject) => {
      const member: Member = { state, resolve, reject, detach: () => undefined };
      const streamId = state.prepared.request.streamId;
      let pending = this.#open;
      // One slice per stream per object: a second append of the same stream goes into the next object.
      if (pending?.streams.has(streamId) === true) {
        this.#seal(pending, true);
        pending = undefined;
      }
      if (pending === undefined) {
        pending = new PendingObject();
        this.#open = pending;
        const owner = pending;
        const linger = (): void => {
          owner.cancelLinger = undefined;
          if (this.#inFlight < this.policy.maxConcurrentFlushes) this.#seal(owner, false);
          else owner.due = true;
        };
        // Linger 0: every persist made before the microtasks of this turn have drained joins the object, then it
        // is uploaded (a tick callback runs once the promise jobs queued ahead of it, and theirs, have run) — without
        // waiting for the event loop's next check phase behind every I/O callback of the turn.
        if (this.policy.lingerMs === 0) {
          let cancelled = false;
          process.nextTick(() => {
            if (!cancelled) linger();
          });
          owner.cancelLinger = () => {
            cancelled = true;
          };
        } else {
          const timer = setTimeout(linger, this.policy.lingerMs);
          owner.cancelLinger = () => clearTimeout(timer);
        }
      }
      pending.add(member);
      if (signal !== undefined) {
        const object = pending;
        const onAbort = (): void => {
          if (object.flushing) return;
          object.remove(member);
          reject(cancelled(signal));
        };
        signal.addEventListener("abort", onAbort, { once: true });
        member.detach = () => signal.removeEventListener("abort", onAbort);
      }
      if (pending.bytes >= this.policy.maxBytes || pending.members.length >= this.policy.maxSlices)
        this.#seal(pending, true);
    });
  }

  /** Closes `pending` for new slices and queues it for upload (`force`: even while every upload slot is busy). */
  #seal(pending: PendingObject, force: boolean): void {
    pending.cancelLinger?.();
    pending.cancelLinger = undefined;
    if (!force && this.#inFlight >= this.policy.maxConcurrentFlushes) {
      pending.due = true;
      return;
    }
    if (this.#open === pending) this.#open = undefined;
    if (pending.members.length > 0) this.#ready.push(pending);
    this.#pump();
  }

  #pump(): void {
    while (this.#inFlight < this.policy.maxConcurrentFlushes) {
      let next = this.#ready.shift();
      if (next === undefined && this.#open?.due === true) {
        next = this.#open;
        this.#open = undefined;
        if (next.members.length === 0) continue;
      }
      if (next === undefined) return;
      this.#inFlight += 1;
      const flush = this.#flush(next).finally(() => {
        this.#inFlight -= 1;
        this.#flushes.delete(flush);
        this.#pump();
      });
      this.#flushes.add(flush);
    }
  }

  async #flush(pending: PendingObject): Promise<void> {
    pending.flushing = true;
    const members = [...pending.members];
    for (const member of members) member.detach();
    if (members.length === 0) return;
    // The encoded body's memory goes back to the store (`releaseBody`) once the upload has ended — every
    // transmission and check — or at once when the flush fails before any upload started.
    let encodedBody: Uint8Array | undefined;
    let uploadStarted = false;
    try {
      this.#sequence += 1;
      const createdAtMillis = this.#clock();
      const identity = walObjectIdentity({
        cluster: this.#cluster,
        writerId: this.writerId,
        processRunId: this.processRunId,
        sequence: this.#sequence,
        createdAtMillis,
      });
      assertObjectKey(identity.objectKey);
      const encoded = encodeWalObject(
        {
          writerId: this.writerId,
          attemptKey: identity.objectId,
          createdAtMillis,
          slices: members.map((member) => ({
            streamId: member.state.prepared.request.streamId,
            firstExpectedOffset: member.state.prepared.request.expectedStartOffset,
            entries: member.state.entries,
          })),
        },
        this.#allocateBody,
      );
      encodedBody = encoded.bytes;
      const descriptors = validateEncodedObject(encoded, members);
      const root = this.#root(identity, encoded, createdAtMillis);
      await this.#hooks.beforeUpload?.(identity.objectKey);
      const deadline = this.#flushDeadline();
      const signal = deadline.signal;
      // One slice into a store that gates puts: the members resolve as soon as the write is queued, with its gate;
      // the head transaction waits for it (so the txn is built and sent while the bytes are being synced).
      const gate =
        members.length === 1
          ? await this.#putGated(identity.objectKey, encoded.bytes, encoded.storageChecksum, signal).finally(
              deadline.dispose,
            )
          : undefined;
      if (gate !== undefined) {
        uploadStarted = true;
        this.#rememberUncreatedRoot(root);
        await this.#hooks.afterUpload?.(identity.objectKey);
        this.#resolveMembers(identity.objectKey, encoded.bytes.byteLength, members, descriptors, gate);
        return;
      }
      const uploading = uploadImmutableObject(this.#store, identity.objectKey, encoded.bytes, {
        attempts: this.#putAttempts,
        backoffMs: 50,
        signal,
        crc32c: encoded.storageChecksum,
        onPut: () => {
          this.stats.puts += 1;
        },
      });
      uploadStarted = true;
      const release = (): void => this.#store.accelerations?.releaseBody?.(encoded.bytes);
      uploading.then(release, release);
      if (members.length === 1) {
        // One slice: its head transaction creates the root (see `protect`), so the flush waits for the PUT only.
        const upload = await uploading.finally(deadline.dispose);
        if (upload.recognisedOwnWrite) this.stats.recognisedOwnWrites += 1;
        this.#rememberUncreatedRoot(root);
      } else {
        const [versioned, upload] = await Promise.all([
          this.#roots.create(this.#metadata, root, signal),
          uploading,
        ]).finally(deadline.dispose);
        if (upload.recognisedOwnWrite) this.stats.recognisedOwnWrites += 1;
        this.#rememberRoot(identity.objectKey, versioned);
      }
      await this.#hooks.afterUpload?.(identity.objectKey);
      this.#resolveMembers(identity.objectKey, encoded.bytes.byteLength, members, descriptors, undefined);
    } catch (error) {
      if (!uploadStarted && encodedBody !== undefined) this.#store.accelerations?.releaseBody?.(encodedBody);
      this.stats.failedFlushes += 1;
      for (const member of members) member.reject(asWriteFailure(error));
    }
  }

  /** Resolves every member with its slice of the uploaded (or, with `gate`, queued) object. */
  #resolveMembers(
    objectKey: string,
    objectBytes: number,
    members: readonly Member[],
    descriptors: readonly WalSliceDescriptor[],
    gate: DurabilityGate | undefined,
  ): void {
    this.stats.objects += 1;
    this.stats.slices += members.length;
    this.stats.objectBytes += objectBytes;
    members.forEach((member, index) => {
      const descriptor = descriptors[index] as WalSliceDescriptor;
      const target: ObjectSliceTarget = {
        type: "OBJECT_SLICE",
        version: 1,
        objectKey,
        objectType: "MULTI_STREAM_WAL_OBJECT",
        sliceOffset: descriptor.offset,
        sliceLength: descriptor.length,
        sliceChecksum: descriptor.checksum,
        entryCount: descriptor.entryCount,
      };
      member.resolve(
        gate === undefined
          ? { prepared: member.state.prepared, readTarget: target }
          : { prepared: member.state.prepared, readTarget: target, gate },
      );
    });
  }

  /**
   * Starts a gated put when the store offers one (undefined: it did not start one; upload the usual way). The body
   * goes back to the store once the put ended; with the `afterUpload` hook set, the put is awaited (the hook's
   * contract is "after the PUT").
   */
  async #putGated(
    objectKey: string,
    body: Uint8Array,
    crc32c: number,
    signal: AbortSignal,
  ): Promise<DurabilityGate | undefined> {
    const accelerations = this.#store.accelerations;
    if (accelerations?.putIfAbsentGated === undefined) return undefined;
    const started = await accelerations.putIfAbsentGated(objectKey, body, { signal, crc32c });
    if (started === undefined) return undefined;
    this.stats.puts += 1;
    const release = (): void => accelerations.releaseBody?.(body);
    started.done.then(release, release);
    const durable = started.done.then(({ created }) => {
      if (!created)
        throw new NereusError(ErrorCode.PRIMARY_WAL_WRITE_FAILED, `WAL object key ${objectKey} was taken`, {
          retryable: false,
        });
    });
    durable.catch(() => {
      this.stats.failedFlushes += 1;
    });
    if (this.#hooks.afterUpload !== undefined) await durable;
    const gateAccelerations = started.gate.accelerations;
    return gateAccelerations === undefined ? { durable } : { durable, accelerations: gateAccelerations };
  }

  /** The signal of one flush: aborts on close or after `flushTimeoutMs` (one controller, one unref'd timer). */
  #flushDeadline(): { readonly signal: AbortSignal; readonly dispose: () => void } {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      controller.abort(
        new NereusError(ErrorCode.TIMEOUT, `WAL object flush exceeded ${String(this.#flushTimeoutMs)} ms`),
      );
    }, this.#flushTimeoutMs);
    timer.unref();
    const closing = this.#closing.signal;
    const onClose = (): void => controller.abort(closing.reason);
    closing.addEventListener("abort", onClose, { once: true });
    return {
      signal: controller.signal,
      dispose: () => {
        clearTimeout(timer);
        closing.removeEventListener("abort", onClose);
      },
    };
  }

  #root(identity: WalObjectIdentity, encoded: EncodedWalObject, createdAtMillis: number): PhysicalObjectRoot {
    const footer = decodeWalObjectFooter(
      encoded.bytes.subarray(encoded.bytes.length - WAL_OBJECT_LAYOUT.footerBytes),
      encoded.bytes.length,
    );
    return {
      objectKey: identity.objectKey,
      objectKeyHash: objectKeyHash(identity.objectKey),
      objectId: identity.objectId,
      kind: "OBJECT_WAL",
      lifecycle: "ACTIVE",
      lifecycleEpoch: 0,
      writerId: this.writerId,
      processRunId: this.processRunId,
      createdAtMillis,
      orphanNotBeforeMillis: createdAtMillis + this.#orphanGraceMs,
      objectLength: encoded.bytes.length,
      storageChecksum: encoded.storageChecksum,
      formatMajor: encoded.header.formatMajor,
      formatMinor: encoded.header.formatMinor,
      sliceCount: encoded.manifest.length,
      manifestOffset: footer.manifestOffset,
      manifestLength: footer.manifestLength,
      manifestChecksum: footer.manifestChecksum,
    };
  }

  #rememberUncreatedRoot(root: PhysicalObjectRoot): void {
    this.#uncreatedRoots.set(root.objectKey, { root, protected: false });
    if (this.#uncreatedRoots.size > ROOT_CACHE_SIZE) {
      const oldest = this.#uncreatedRoots.keys().next().value;
      if (oldest !== undefined) this.#uncreatedRoots.delete(oldest);
    }
  }

  #rememberRoot(objectKey: string, versioned: VersionedRoot): void {
    this.#rootCache.set(objectKey, versioned);
    if (this.#rootCache.size > ROOT_CACHE_SIZE) {
      const oldest = this.#rootCache.keys().next().value;
      if (oldest !== undefined) this.#rootCache.delete(oldest);
    }
  }
}

/**
 * Re-reads the encoded object's footer and manifest (as a reader would) and checks that every member's slice is
 * described exactly as prepared. Returns the descriptor of each member, in member order.
 */
function validateEncodedObject(encoded: EncodedWalObject, members: readonly Member[]): WalSliceDescriptor[] {
  const bytes = encoded.bytes;
  const footer = decodeWalObjectFooter(bytes.subarray(bytes.length - WAL_OBJECT_LAYOUT.footerBytes), bytes.length);
  const manifest = decodeWalManifest(
    bytes.subarray(footer.manifestOffset, footer.manifestOffset + footer.manifestLength),
    footer,
  );
  const byStream = new Map(manifest.map((descriptor) => [descriptor.streamId, descriptor]));
  if (manifest.length !== members.length)
    throw misencoded(`${String(manifest.length)} slices for ${String(members.length)} appends`);
  return members.map((member) => {
    const prepared = member.state.prepared;
    const descriptor = byStream.get(prepared.request.streamId);
    if (
      descriptor === undefined ||
      descriptor.entryCount !== prepared.entryCount ||
      descriptor.recordCount !== prepared.recordCount ||
      descriptor.payloadBytes !== prepared.logicalBytes ||
      descriptor.firstExpectedOffset !== prepared.request.expectedStartOffset ||
      descriptor.offset + descriptor.length > footer.manifestOffset
    ) {
      throw misencoded(`the manifest does not describe the slice of stream ${prepared.request.streamId} as prepared`);
    }
    return descriptor;
  });
}

function misencoded(message: string): NereusError {
  return new NereusError(ErrorCode.PRIMARY_WAL_WRITE_FAILED, `WAL object failed validation before upload: ${message}`, {
    retryable: false,
  });
}

function asWriteFailure(error: unknown): NereusError {
  if (
    NereusError.is(error) &&
    (error.code === ErrorCode.PRIMARY_WAL_WRITE_FAILED || error.code === ErrorCode.STORAGE_CLOSED)
  )
    return error;
  if (NereusError.is(error)) {
    return new NereusError(ErrorCode.PRIMARY_WAL_WRITE_FAILED, `WAL object flush failed: ${error.message}`, {
      retryable: error.retryable,
      cause: error,
      details: { ...error.details },
    });
  }
  return new NereusError(ErrorCode.PRIMARY_WAL_WRITE_FAILED, `WAL object flush failed: ${String(error)}`, {
    retryable: false,
    cause: error,
  });
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw cancelled(signal);
}

function cancelled(signal: AbortSignal): NereusError {
  return NereusError.is(signal.reason)
    ? signal.reason
    : new NereusError(ErrorCode.CANCELLED, "Object WAL persist cancelled", { retryable: false, cause: signal.reason });
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `Object WAL writer: ${message}`, { retryable: false });
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw invalid(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}
