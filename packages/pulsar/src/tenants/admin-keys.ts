// Metadata keys of the tenants and namespaces created through the admin API, next to the adapter's topic records
// under P/pulsar (P = /nereus/clusters/{cluster}):
//
//   P/pulsar/tenants/{tenant}                  one PulsarTenant record per created tenant
//   P/pulsar/namespaces/{tenant}/{namespace}   one PulsarNamespace record per created namespace
//
// Components go through core's key-component codec, so a tenant's namespaces are one prefix scan. Parsers accept
// exactly what the builders produce and throw DECODE_ERROR otherwise.
import { ErrorCode, NereusError } from "@nereus/core";
import { decodeKeyComponent, encodeKeyComponent } from "@nereus/core/internal";

/** Fixed path segments (durable; never rename). */
const AdminKeySegment = { TENANTS: "tenants", NAMESPACES: "namespaces" } as const;

function malformed(key: string, kind: string, cause?: unknown): NereusError {
  return new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not a ${kind} key`, {
    retryable: false,
    cause,
  });
}

/** Key builders and parsers of one cluster's tenants and namespaces. */
export class AdminKeyspace {
  readonly #root: string;

  /** `pulsarRoot` is P/pulsar of the cluster (PulsarKeyspace.root). */
  constructor(pulsarRoot: string) {
    this.#root = pulsarRoot;
  }

  /** `P/pulsar/tenants/`: scan prefix of every tenant record. */
  tenantsPrefix(): string {
    return `${this.#root}/${AdminKeySegment.TENANTS}/`;
  }

  /** `P/pulsar/tenants/{tenant}`. */
  tenantKey(tenant: string): string {
    return this.tenantsPrefix() + encodeKeyComponent(tenant);
  }

  /** The tenant a tenant key names; DECODE_ERROR for any other key. */
  parseTenantKey(key: string): string {
    const [tenant] = this.#components(key, this.tenantsPrefix(), 1, "Pulsar tenant");
    return tenant!;
  }

  /** `P/pulsar/namespaces/{tenant}/`: scan prefix of a tenant's namespace records. */
  namespacesPrefix(tenant: string): string {
    return `${this.#root}/${AdminKeySegment.NAMESPACES}/${encodeKeyComponent(tenant)}/`;
  }

  /** `P/pulsar/namespaces/{tenant}/{namespace}`. */
  namespaceKey(tenant: string, namespace: string): string {
    return this.namespacesPrefix(tenant) + encodeKeyComponent(namespace);
  }

  /** `tenant/namespace` of a namespace key; DECODE_ERROR for any other key. */
  parseNamespaceKey(key: string): string {
    const [tenant, namespace] = this.#components(
      key,
      `${this.#root}/${AdminKeySegment.NAMESPACES}/`,
      2,
      "Pulsar namespace",
    );
    return `${tenant!}/${namespace!}`;
  }

  #components(key: string, prefix: string, count: number, kind: string): string[] {
    const parts = key.startsWith(prefix) ? key.slice(prefix.length).split("/") : [];
    if (parts.length !== count || parts.some((part) => part.length === 0)) throw malformed(key, kind);
    try {
      return parts.map(decodeKeyComponent);
    } catch (cause) {
      throw malformed(key, kind, cause);
    }
  }
}
