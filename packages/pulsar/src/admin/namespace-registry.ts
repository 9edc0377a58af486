// The tenants and namespaces of one cluster as the admin API shows them: the built-in tenant `public` with its
// namespace `public/default`, plus the ones created through the API (PulsarTenant / PulsarNamespace records).
// Topics do not depend on them: a client may use a topic in any namespace, created or not. A namespace creation
// re-writes its tenant's record in the same transaction, so a tenant deletion that checked "no namespaces" loses its
// compare-and-swap to a namespace created meanwhile. It does not own the metadata store.
import { ErrorCode, MetadataAmbiguousError, type MetadataStore, NereusError, type TxnRequest } from "@nereus/core";
import { type RecordCodec, bytesEqual } from "@nereus/core/internal";
import { AdminKeyspace } from "../tenants/admin-keys.js";
import { type PulsarNamespace, namespaceRecordCodec } from "./namespace-record-codec.js";
import { type PulsarTenant, tenantRecordCodec } from "../tenants/tenant-record-codec.js";

/** The tenant that always exists. */
const BUILT_IN_TENANT = "public";
/** The namespace that always exists (the one of short topic names). */
const BUILT_IN_NAMESPACE = "public/default";

const SCAN_PAGE = 500;
const MAX_CAS_ATTEMPTS = 16;

/** Outcome of a creation: made now, or there already. */
export type CreateOutcome = "created" | "exists";
/** Outcome of a namespace creation; `no-tenant` when its tenant does not exist. */
export type CreateNamespaceOutcome = CreateOutcome | "no-tenant";
/** Outcome of a deletion. `built-in`: `public` and `public/default` cannot be deleted. */
export type DeleteOutcome = "deleted" | "absent" | "built-in" | "not-empty";

interface Stored<T> {
  readonly record: T;
  readonly modRevision: number;
}

/** Tenants and namespaces of one cluster (see the module comment). */
export class NamespaceRegistry {
  readonly #metadata: MetadataStore;
  readonly #keys: AdminKeyspace;
  readonly #tenants: RecordCodec<PulsarTenant>;
  readonly #namespaces: RecordCodec<PulsarNamespace>;
  readonly #cluster: string;
  readonly #clock: () => number;

  /** `pulsarRoot` is P/pulsar of `cluster` (PulsarKeyspace.root). */
  constructor(metadata: MetadataStore, pulsarRoot: string, cluster: string, clock: () => number = Date.now) {
    this.#metadata = metadata;
    this.#keys = new AdminKeyspace(pulsarRoot);
    this.#tenants = tenantRecordCodec(this.#keys);
    this.#namespaces = namespaceRecordCodec(this.#keys);
    this.#cluster = cluster;
    this.#clock = clock;
  }

  /** Every tenant name, sorted (`public` included). */
  async listTenants(signal?: AbortSignal): Promise<string[]> {
    const created = await this.#scan(this.#keys.tenantsPrefix(), this.#tenants, signal);
    return sortedDistinct([BUILT_IN_TENANT, ...created.map((tenant) => tenant.name)]);
  }

  /** The tenant `name`, or undefined. `public` lists this cluster and no roles. */
  async getTenant(name: string, signal?: AbortSignal): Promise<PulsarTenant | undefined> {
    const stored = await this.#read(this.#keys.tenantKey(name), this.#tenants, signal);
    if (stored !== undefined) return stored.record;
    if (name !== BUILT_IN_TENANT) return undefined;
    return { name, adminRoles: [], allowedClusters: [this.#cluster], createdAtMillis: 0 };
  }

  /** Creates tenant `name` with `roles` and `clusters` (`exists` for `public` or a created one). */
  async createTenant(
    name: string,
    roles: readonly string[],
    clusters: readonly string[],
    signal?: AbortSignal,
  ): Promise<CreateOutcome> {
    if (name === BUILT_IN_TENANT) return "exists";
    const tenant: PulsarTenant = {
      name,
      adminRoles: sortedDistinct(roles),
      allowedClusters: sortedDistinct(clusters),
      createdAtMillis: this.#clock(),
    };
    const key = this.#keys.tenantKey(name);
    const value = this.#tenants.encode(tenant);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const existing = await this.#metadata.get(key, { signal });
      if (existing !== undefined) return ownWrite(existing.value, value, attempt);
      const request: TxnRequest = { compares: [{ key, modRevision: 0 }], writes: [{ type: "put", key, value }] };
      if (await this.#txn(request, signal)) return "created";
    }
    throw contention(`tenant ${name}`);
  }

  /** Deletes tenant `name` when it has no namespaces (`not-empty` otherwise). */
  async deleteTenant(name: string, signal?: AbortSignal): Promise<DeleteOutcome> {
    if (name === BUILT_IN_TENANT) return "built-in";
    const key = this.#keys.tenantKey(name);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const stored = await this.#read(key, this.#tenants, signal);
      if (stored === undefined) return "absent";
      if ((await this.#scan(this.#keys.namespacesPrefix(name), this.#namespaces, signal, 1)).length > 0) {
        return "not-empty";
      }
      const request: TxnRequest = {
        compares: [{ key, modRevision: stored.modRevision }],
        writes: [{ type: "delete", key }],
      };
      if (await this.#txn(request, signal)) return "deleted";
    }
    throw contention(`tenant ${name}`);
  }

  /** The namespaces (`tenant/namespace`) of `tenant`, sorted; `public/default` for `public`. */
  async listNamespaces(tenant: string, signal?: AbortSignal): Promise<string[]> {
    const created = await this.#scan(this.#keys.namespacesPrefix(tenant), this.#namespaces, signal);
    const names = created.map((namespace) => namespace.name);
    return sortedDistinct(tenant === BUILT_IN_TENANT ? [BUILT_IN_NAMESPACE, ...names] : names);
  }

  /** The namespace `tenant/namespace`, or undefined. */
  async getNamespace(tenant: string, namespace: string, signal?: AbortSignal): Promise<PulsarNamespace | undefined> {
    const name = `${tenant}/${namespace}`;
    if (name === BUILT_IN_NAMESPACE) return { name, createdAtMillis: 0 };
    return (await this.#read(this.#keys.namespaceKey(tenant, namespace), this.#namespaces, signal))?.record;
  }

  /** Creates `tenant/namespace` (its tenant must exist). */
  async createNamespace(tenant: string, namespace: string, signal?: AbortSignal): Promise<CreateNamespaceOutcome> {
    const name = `${tenant}/${namespace}`;
    if (name === BUILT_IN_NAMESPACE) return "exists";
    const key = this.#keys.namespaceKey(tenant, namespace);
    const value = this.#namespaces.encode({ name, createdAtMillis: this.#clock() });
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const existing = await this.#metadata.get(key, { signal });
      if (existing !== undefined) return ownWrite(existing.value, value, attempt);
      const request = await this.#namespaceCreation(tenant, key, value, signal);
      if (request === undefined) return "no-tenant";
      if (await this.#txn(request, signal)) return "created";
    }
    throw contention(`namespace ${name}`);
  }

  /** Deletes `tenant/namespace` (the caller checks it holds no topics). */
  async deleteNamespace(tenant: string, namespace: string, signal?: AbortSignal): Promise<DeleteOutcome> {
    if (`${tenant}/${namespace}` === BUILT_IN_NAMESPACE) return "built-in";
    const key = this.#keys.namespaceKey(tenant, namespace);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const stored = await this.#read(key, this.#namespaces, signal);
      if (stored === undefined) return "absent";
      const request: TxnRequest = {
        compares: [{ key, modRevision: stored.modRevision }],
        writes: [{ type: "delete", key }],
      };
      if (await this.#txn(request, signal)) return "deleted";
    }
    throw contention(`namespace ${tenant}/${namespace}`);
  }

  /** The transaction creating a namespace at `key`: compares and re-writes its tenant's record (none for `public`). */
  async #namespaceCreation(
    tenant: string,
    key: string,
    value: Uint8Array,
    signal: AbortSignal | undefined,
  ): Promise<TxnRequest | undefined> {
    const tenantKey = this.#keys.tenantKey(tenant);
    const stored = await this.#metadata.get(tenantKey, { signal });
    if (stored === undefined && tenant !== BUILT_IN_TENANT) return undefined;
    const compares = [
      { key, modRevision: 0 },
      { key: tenantKey, modRevision: stored?.modRevision ?? 0 },
    ];
    const writes: TxnRequest["writes"] = [{ type: "put", key, value }];
    return {
      compares,
      writes: stored === undefined ? writes : [...writes, { type: "put", key: tenantKey, value: stored.value }],
    };
  }

  async #read<T>(key: string, codec: RecordCodec<T>, signal: AbortSignal | undefined): Promise<Stored<T> | undefined> {
    const item = await this.#metadata.get(key, { signal });
    return item === undefined
      ? undefined
      : { record: codec.decode(item.value, item.key), modRevision: item.modRevision };
  }

  async #scan<T>(
    prefix: string,
    codec: RecordCodec<T>,
    signal: AbortSignal | undefined,
    limit = Infinity,
  ): Promise<T[]> {
    const records: T[] = [];
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#metadata.scan(prefix, { limit: SCAN_PAGE, startAfter, signal });
      for (const item of page.items) records.push(codec.decode(item.value, item.key));
      if (!page.more || page.items.length === 0 || records.length >= limit) return records;
      startAfter = page.items[page.items.length - 1]?.key;
    }
  }

  /** Applies `request`; false when a compare failed or the outcome was lost (the caller re-reads). */
  async #txn(request: TxnRequest, signal: AbortSignal | undefined): Promise<boolean> {
    try {
      return (await this.#metadata.txn(request, { signal })).succeeded;
    } catch (error) {
      if (MetadataAmbiguousError.isAmbiguous(error)) return false;
      throw error;
    }
  }
}

/** "created" when a record found after a lost answer is exactly the one this call wrote, else "exists". */
function ownWrite(stored: Uint8Array, written: Uint8Array, attempt: number): CreateOutcome {
  return attempt > 0 && bytesEqual(stored, written) ? "created" : "exists";
}

function contention(what: string): NereusError {
  return new NereusError(ErrorCode.METADATA_CONDITION_FAILED, `${what}: its record kept changing`, {
    retryable: true,
  });
}

function sortedDistinct(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
