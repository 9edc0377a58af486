// This broker's registration in the cluster and its view of the live brokers. The broker puts its record under a
// lease it renews every third of the TTL; a broker that stops renewing disappears (with every claim bound to its
// lease) once the TTL has passed. The live set comes from a scan of the registrations, redone on every watch event
// (events are hints) and on every renewal tick. The broker counts itself registered only until the moment its lease
// could have expired on the server (the send time of the last successful renewal plus the TTL, less a margin), so it
// stops acting as an owner before another broker can claim what it held; it then registers again under a new lease.
import { type Lease, type MetadataStore, NereusError, type WatchHandle } from "@nereus/core";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { type BrokerRecord, decodeBrokerRecord, encodeBrokerRecord } from "./broker-record.js";
import type { ClusterKeys } from "./cluster-keys.js";

/** Options of {@link BrokerMembership}. */
export interface BrokerMembershipOptions {
  readonly metadata: MetadataStore;
  readonly keys: ClusterKeys;
  /** Lease TTL (etcd rounds it up to whole seconds). */
  readonly leaseTtlMs: number;
  readonly logger: BrokerLogger;
  readonly clock?: () => number;
}

const SCAN_PAGE = 500;

/**
 * See the module comment. Invariants: `live` is sorted by node id and holds at most one record per node id;
 * `registered()` is false whenever this broker's lease may have expired; listeners run after every change of either.
 */
export class BrokerMembership {
  readonly #options: BrokerMembershipOptions;
  readonly #clock: () => number;
  readonly #listeners: Array<() => void> = [];
  #self: BrokerRecord | undefined;
  #lease: Lease | undefined;
  /** Local time until which this broker's lease surely still lives. */
  #validUntil = 0;
  #wasRegistered = false;
  #live: readonly BrokerRecord[] = [];
  #watch: WatchHandle | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #scan: Promise<void> | undefined;
  #rescanWanted = false;
  #ticking = false;
  #closed = false;

  constructor(options: BrokerMembershipOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
  }

  /** The live brokers by ascending node id (this one included while registered). */
  get live(): readonly BrokerRecord[] {
    return this.#live;
  }

  /** This broker's node id (after `start`). */
  get selfId(): number | undefined {
    return this.#self?.nodeId;
  }

  /** The lease this broker's keys are bound to, while registered. */
  get leaseId(): string | undefined {
    return this.registered() ? this.#lease?.id : undefined;
  }

  /** True while this broker's registration surely lives. */
  registered(): boolean {
    return !this.#closed && this.#lease !== undefined && this.#clock() < this.#validUntil;
  }

  /** Calls `listener` after every change of the live set or of this broker's registration. */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Registers `self`, reads the live set and starts renewing and watching. Throws when etcd cannot be reached. */
  async start(self: BrokerRecord): Promise<void> {
    this.#self = self;
    await this.#register();
    this.#watch = await this.#options.metadata.watch(this.#options.keys.brokersPrefix(), () => void this.#rescan());
    await this.#rescan();
    const period = Math.max(200, Math.floor(this.#options.leaseTtlMs / 3));
    this.#timer = setInterval(() => void this.#tick(), period);
  }

  /** Stops renewing and revokes the lease: this broker's keys (registration and claims) go at once. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    await this.#watch?.close().catch(() => undefined);
    await this.#scan?.catch(() => undefined);
    try {
      await this.#lease?.revoke();
    } catch (error) {
      this.#options.logger.warn("revoking the broker lease failed (it expires by itself)", { error: String(error) });
    }
    this.#live = [];
    this.#notify();
  }

  async #register(): Promise<void> {
    const self = this.#self;
    if (self === undefined) return;
    const { metadata, keys, leaseTtlMs } = this.#options;
    const sentAt = this.#clock();
    const lease = await metadata.grantLease(leaseTtlMs);
    await metadata.txn({
      compares: [],
      writes: [{ type: "put", key: keys.brokerKey(self.nodeId), value: encodeBrokerRecord(self), leaseId: lease.id }],
    });
    this.#lease = lease;
    this.#validUntil = sentAt + this.#validFor();
    this.#options.logger.info("broker registered in the cluster", { nodeId: self.nodeId, lease: lease.id });
  }

  /** How long after a renewal was sent the lease surely lives: the TTL less a margin for clock rate and latency. */
  #validFor(): number {
    const ttl = this.#options.leaseTtlMs;
    return ttl - Math.min(1_000, Math.floor(ttl / 4));
  }

  async #tick(): Promise<void> {
    if (this.#ticking || this.#closed) return;
    this.#ticking = true;
    try {
      await this.#renew();
      await this.#rescan();
    } finally {
      this.#ticking = false;
    }
  }

  async #renew(): Promise<void> {
    const lease = this.#lease;
    if (lease !== undefined) {
      const sentAt = this.#clock();
      try {
        await lease.keepAlive();
        if (!this.#closed && this.#lease === lease) this.#validUntil = sentAt + this.#validFor();
        return;
      } catch (error) {
        this.#options.logger.warn("renewing the broker lease failed", { error: String(error) });
      }
    }
    if (this.registered() || this.#closed) return;
    this.#notify();
    try {
      await this.#register();
    } catch (error) {
      this.#options.logger.warn("registering the broker failed; retrying", { error: String(error) });
    }
  }

  /** Reads the live set again (one scan at a time; a request during a scan runs one more afterwards). */
  #rescan(): Promise<void> {
    if (this.#scan !== undefined) {
      this.#rescanWanted = true;
      return this.#scan;
    }
    this.#scan = (async () => {
      do {
        this.#rescanWanted = false;
        try {
          this.#update(await this.#readLive());
        } catch (error) {
          if (!NereusError.is(error)) throw error;
          this.#options.logger.warn("reading the live brokers failed", { error: error.message });
        }
      } while (this.#rescanWanted && !this.#closed);
    })().finally(() => {
      this.#scan = undefined;
    });
    return this.#scan;
  }

  async #readLive(): Promise<BrokerRecord[]> {
    const records = new Map<number, BrokerRecord>();
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#options.metadata.scan(this.#options.keys.brokersPrefix(), {
        limit: SCAN_PAGE,
        ...(startAfter === undefined ? {} : { startAfter }),
      });
      for (const item of page.items) {
        try {
          const record = decodeBrokerRecord(item.value);
          records.set(record.nodeId, record);
        } catch (error) {
          this.#options.logger.warn("ignoring an unreadable broker record", { key: item.key, error: String(error) });
        }
      }
      const last = page.items.at(-1);
      if (!page.more || last === undefined) break;
      startAfter = last.key;
    }
    return [...records.values()].sort((a, b) => a.nodeId - b.nodeId);
  }

  #update(live: readonly BrokerRecord[]): void {
    if (this.#closed) return;
    const same =
      live.length === this.#live.length &&
      live.every((record, index) => JSON.stringify(record) === JSON.stringify(this.#live[index]));
    const registered = this.registered();
    if (same && registered === this.#wasRegistered) return;
    this.#live = live;
    this.#notify();
  }

  #notify(): void {
    this.#wasRegistered = this.registered();
    for (const listener of this.#listeners) listener();
  }
}
