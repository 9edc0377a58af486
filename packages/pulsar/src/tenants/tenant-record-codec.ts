// PulsarTenant record codec (NRM1 recordType "PulsarTenant", schema 1): a tenant created through the admin API,
// stored at P/pulsar/tenants/{tenant}. Payload, big-endian:
//   name             string   [-=:.\w]{1,255}
//   adminRoles       u32 count, then that many strings (sorted, distinct, non-empty)
//   allowedClusters  u32 count, then that many strings (sorted, distinct, cluster names)
//   createdAtMillis  u64
// `decode` requires the record's name to be the one its key names.
import type { ByteReader, ByteWriter } from "@nereus/core";
import { type RecordChecks, type RecordCodec, defineRecordCodec } from "@nereus/core/internal";
import type { AdminKeyspace } from "./admin-keys.js";

/** A tenant: its name, who administers it and the clusters its namespaces may use. */
export interface PulsarTenant {
  readonly name: string;
  readonly adminRoles: readonly string[];
  readonly allowedClusters: readonly string[];
  readonly createdAtMillis: number;
}

/** Most roles or clusters one tenant record lists. */
export const MAX_TENANT_LIST_LENGTH = 1024;
const NAMED_ENTITY = /^[-=:.\w]{1,255}$/;

function checkSortedDistinct(checks: RecordChecks, name: string, values: readonly string[]): void {
  checks.require(Array.isArray(values), `${name} must be an array`);
  checks.require(values.length <= MAX_TENANT_LIST_LENGTH, `${name} lists more than ${String(MAX_TENANT_LIST_LENGTH)}`);
  values.forEach((value, index) => {
    checks.text(`${name}[${String(index)}]`, value);
    if (index > 0) checks.require(values[index - 1]! < value, `${name} must be sorted and distinct`);
  });
}

function validate(tenant: PulsarTenant, checks: RecordChecks): void {
  checks.text("name", tenant.name);
  checks.require(NAMED_ENTITY.test(tenant.name), `name ${JSON.stringify(tenant.name)} is not [-=:.\\w]{1,255}`);
  checkSortedDistinct(checks, "adminRoles", tenant.adminRoles);
  checkSortedDistinct(checks, "allowedClusters", tenant.allowedClusters);
  checks.natural("createdAtMillis", tenant.createdAtMillis);
}

function writeList(writer: ByteWriter, values: readonly string[]): void {
  writer.writeU32(values.length);
  for (const value of values) writer.writeString(value);
}

function readList(reader: ByteReader, field: string): string[] {
  const count = reader.readU32(`${field} count`);
  if (count > MAX_TENANT_LIST_LENGTH) throw reader.error(field, `${String(count)} items exceed the limit`);
  return Array.from({ length: count }, (_, index) => reader.readString(`${field}[${String(index)}]`));
}

/** The codec of PulsarTenant records, bound to a keyspace (`decode` checks the record against its key). */
export function tenantRecordCodec(keyspace: AdminKeyspace): RecordCodec<PulsarTenant> {
  return defineRecordCodec({
    recordType: "PulsarTenant",
    schemaVersion: 1,
    validate,
    parseKey: (key) => keyspace.parseTenantKey(key),
    matchKey(tenant, keyName, checks) {
      checks.require(
        tenant.name === keyName,
        `name ${JSON.stringify(tenant.name)} does not match the key's tenant ${JSON.stringify(keyName)}`,
      );
    },

    write(writer, tenant) {
      writer.writeString(tenant.name);
      writeList(writer, tenant.adminRoles);
      writeList(writer, tenant.allowedClusters);
      writer.writeU64(tenant.createdAtMillis);
    },

    read(reader): PulsarTenant {
      return {
        name: reader.readString("name"),
        adminRoles: readList(reader, "adminRoles"),
        allowedClusters: readList(reader, "allowedClusters"),
        createdAtMillis: reader.readU64("createdAtMillis"),
      };
    },
  });
}
