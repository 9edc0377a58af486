// PulsarNamespace record codec (NRM1 recordType "PulsarNamespace", schema 1): a namespace created through the admin
// API, stored at P/pulsar/namespaces/{tenant}/{namespace}. Payload, big-endian:
//   name             string   {tenant}/{namespace}, each [-=:.\w]{1,255}
//   createdAtMillis  u64
// `decode` requires the record's name to be the one its key names.
import { type RecordChecks, type RecordCodec, defineRecordCodec } from "@nereus/core/internal";
import type { AdminKeyspace } from "../tenants/admin-keys.js";

/** A namespace: `tenant/namespace` and when it was created. */
export interface PulsarNamespace {
  readonly name: string;
  readonly createdAtMillis: number;
}

const NAMESPACE_NAME = /^[-=:.\w]{1,255}\/[-=:.\w]{1,255}$/;

function validate(namespace: PulsarNamespace, checks: RecordChecks): void {
  checks.text("name", namespace.name);
  checks.require(
    NAMESPACE_NAME.test(namespace.name),
    `name ${JSON.stringify(namespace.name)} is not {tenant}/{namespace}`,
  );
  checks.natural("createdAtMillis", namespace.createdAtMillis);
}

/** The codec of PulsarNamespace records, bound to a keyspace (`decode` checks the record against its key). */
export function namespaceRecordCodec(keyspace: AdminKeyspace): RecordCodec<PulsarNamespace> {
  return defineRecordCodec({
    recordType: "PulsarNamespace",
    schemaVersion: 1,
    validate,
    parseKey: (key) => keyspace.parseNamespaceKey(key),
    matchKey(namespace, keyName, checks) {
      checks.require(
        namespace.name === keyName,
        `name ${JSON.stringify(namespace.name)} does not match the key's namespace ${JSON.stringify(keyName)}`,
      );
    },

    write(writer, namespace) {
      writer.writeString(namespace.name).writeU64(namespace.createdAtMillis);
    },

    read(reader): PulsarNamespace {
      return { name: reader.readString("name"), createdAtMillis: reader.readU64("createdAtMillis") };
    },
  });
}
