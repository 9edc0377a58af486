// The admin roles of a tenant, as the authorization checks need them: read from the tenant's PulsarTenant record
// (created through the admin API; `public` and tenants never created have none), cached per tenant for a bounded
// time. It does not own the metadata store.
import type { MetadataStore } from "@nereus/core";
import type { RecordCodec } from "@nereus/core/internal";
import { AdminKeyspace } from "../tenants/admin-keys.js";
import { type PulsarTenant, tenantRecordCodec } from "../tenants/tenant-record-codec.js";

interface CachedRoles {
  readonly roles: readonly string[];
  readonly readAtMillis: number;
}

/** Reads tenants' admin roles (see the module comment). */
export class TenantAdmins {
  readonly #metadata: MetadataStore;
  readonly #keys: AdminKeyspace;
  readonly #codec: RecordCodec<PulsarTenant>;
  readonly #clock: () => number;
  readonly #cache = new Map<string, CachedRoles>();

  /** `pulsarRoot` is P/pulsar of the cluster (PulsarKeyspace.root). */
  constructor(metadata: MetadataStore, pulsarRoot: string, clock: () => number = Date.now) {
    this.#metadata = metadata;
    this.#keys = new AdminKeyspace(pulsarRoot);
    this.#codec = tenantRecordCodec(this.#keys);
    this.#clock = clock;
  }

  /** The admin roles of `tenant` ([] when it was never created), read at most `maxAgeMs` ago. */
  async rolesOf(tenant: string, maxAgeMs: number, signal?: AbortSignal): Promise<readonly string[]> {
    const cached = this.#cache.get(tenant);
    if (cached !== undefined && this.#clock() - cached.readAtMillis < maxAgeMs) return cached.roles;
    const readAtMillis = this.#clock();
    const key = this.#keys.tenantKey(tenant);
    const item = await this.#metadata.get(key, { signal });
    const roles = item === undefined ? [] : this.#codec.decode(item.value, item.key).adminRoles;
    this.#cache.set(tenant, { roles, readAtMillis });
    return roles;
  }
}
