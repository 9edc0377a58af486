// Permission record codecs (NRM1, schema 1): PulsarNamespacePermissions at
// P/pulsar/permissions/namespaces/{tenant}/{namespace} and PulsarTopicPermissions at
// P/pulsar/permissions/topics/{tenant}/{namespace}/{localName} (a partitioned topic's name, never a partition's).
// Payload, big-endian:
//   name      string   `{tenant}/{namespace}`, or the canonical full topic name
// in namespace records only:
//   subMode   u8       the subscription auth mode: 0 None, 1 Prefix
// then in both:
//   count     u32      grants that follow, at most MAX_GRANTS
//   then per grant, sorted by role and distinct:
//     role    string   non-empty, at most MAX_ROLE_BYTES UTF-8 bytes
//     actions u8       bit set of AuthActions (produce 1, consume 2, functions 4, sources 8, sinks 16, packages 32),
//                      never 0
// `decode` requires the record's name to be the one its key names.
import type { ByteReader, ByteWriter } from "@nereus/core";
import { type RecordChecks, type RecordCodec, defineRecordCodec } from "@nereus/core/internal";
import { parseNamespaceName, parseTopicName } from "../topics/topic-name.js";
import { ALL_ACTION_BITS, type AuthAction, actionBits, actionsOf, isAuthAction } from "./auth-actions.js";
import type { PermissionKeyspace } from "./permission-keys.js";

/** The actions granted to one role. */
export interface PermissionGrant {
  readonly role: string;
  /** Non-empty, distinct, in AUTH_ACTIONS order. */
  readonly actions: readonly AuthAction[];
}

/**
 * Pulsar's subscription auth mode of a namespace: with `Prefix`, a role's subscriptions must be named starting with
 * the role (super users excepted); `None` sets no rule.
 */
export type SubscriptionAuthMode = "None" | "Prefix";

/** A stored permission record: the namespace or (partitioned) topic and its grants, sorted by role. */
export interface StoredPermissions {
  readonly name: string;
  readonly grants: readonly PermissionGrant[];
  /** Namespace records only; absent: None. */
  readonly subscriptionAuthMode?: "Prefix";
}

/** Most roles one record grants. */
export const MAX_GRANTS = 1024;
/** Longest role name, in UTF-8 bytes. */
export const MAX_ROLE_BYTES = 1024;

function validateGrants(grants: readonly PermissionGrant[], checks: RecordChecks): void {
  checks.require(Array.isArray(grants), "grants must be an array");
  checks.require(grants.length <= MAX_GRANTS, `more than ${String(MAX_GRANTS)} grants`);
  grants.forEach((grant, index) => {
    checks.text(`grants[${String(index)}].role`, grant.role);
    checks.require(grant.role.length > 0, "a role must not be empty");
    checks.require(Buffer.byteLength(grant.role) <= MAX_ROLE_BYTES, `a role exceeds ${String(MAX_ROLE_BYTES)} bytes`);
    if (index > 0) checks.require(grants[index - 1]!.role < grant.role, "grants must be sorted by role and distinct");
    checks.require(Array.isArray(grant.actions) && grant.actions.length > 0, `role ${grant.role} has no actions`);
    checks.require(grant.actions.every(isAuthAction), `role ${grant.role} has an unknown action`);
    const canonical = actionsOf(actionBits(grant.actions));
    checks.require(
      canonical.length === grant.actions.length && canonical.every((action, at) => grant.actions[at] === action),
      `the actions of role ${grant.role} must be distinct and in AUTH_ACTIONS order`,
    );
  });
}

function writeGrants(writer: ByteWriter, grants: readonly PermissionGrant[]): void {
  writer.writeU32(grants.length);
  for (const grant of grants) writer.writeString(grant.role).writeU8(actionBits(grant.actions));
}

function readGrants(reader: ByteReader, checks: RecordChecks): PermissionGrant[] {
  const count = reader.readU32("count");
  checks.require(count <= MAX_GRANTS, `${String(count)} grants exceed ${String(MAX_GRANTS)}`);
  return Array.from({ length: count }, (_, index) => {
    const role = reader.readString(`grants[${String(index)}].role`);
    const bits = reader.readU8(`grants[${String(index)}].actions`);
    checks.require(bits !== 0 && (bits & ~ALL_ACTION_BITS) === 0, `unknown action bits ${String(bits)}`);
    return { role, actions: actionsOf(bits) };
  });
}

function nameCheck(parse: (name: string) => string, what: string) {
  return (record: StoredPermissions, checks: RecordChecks): void => {
    const mode = record.subscriptionAuthMode;
    checks.require(
      mode === undefined || (mode === "Prefix" && what === "namespace"),
      `subscriptionAuthMode ${String(mode)} is not valid in a ${what} record`,
    );
    checks.text("name", record.name);
    try {
      checks.require(parse(record.name) === record.name, `name is not a canonical ${what}`);
    } catch (error) {
      throw checks.fail(`name: ${error instanceof Error ? error.message : String(error)}`);
    }
    validateGrants(record.grants, checks);
  };
}

function permissionsCodec(
  recordType: string,
  validate: (record: StoredPermissions, checks: RecordChecks) => void,
  parseKey: (key: string) => string,
  withMode: boolean,
): RecordCodec<StoredPermissions> {
  return defineRecordCodec({
    recordType,
    schemaVersion: 1,
    validate,
    parseKey,
    matchKey(record, keyName, checks) {
      checks.require(record.name === keyName, `name ${record.name} does not match the key's ${keyName}`);
    },
    write(writer, record) {
      writer.writeString(record.name);
      if (withMode) writer.writeU8(record.subscriptionAuthMode === "Prefix" ? 1 : 0);
      writeGrants(writer, record.grants);
    },
    read(reader, checks): StoredPermissions {
      const name = reader.readString("name");
      const mode = withMode ? reader.readU8("subscriptionAuthMode") : 0;
      checks.require(mode <= 1, `unknown subscription auth mode ${String(mode)}`);
      const grants = readGrants(reader, checks);
      return mode === 1 ? { name, grants, subscriptionAuthMode: "Prefix" } : { name, grants };
    },
  });
}

/** The codec of namespace permission records, bound to a keyspace. */
export function namespacePermissionsCodec(keyspace: PermissionKeyspace): RecordCodec<StoredPermissions> {
  return permissionsCodec(
    "PulsarNamespacePermissions",
    nameCheck((name) => parseNamespaceName(name).name, "namespace"),
    (key) => keyspace.parseNamespaceKey(key),
    true,
  );
}

/** The codec of topic permission records, bound to a keyspace. */
export function topicPermissionsCodec(keyspace: PermissionKeyspace): RecordCodec<StoredPermissions> {
  const validateName = nameCheck((name) => parseTopicName(name).fullName, "topic");
  return permissionsCodec(
    "PulsarTopicPermissions",
    (record, checks) => {
      validateName(record, checks);
      checks.require(parseTopicName(record.name).partitionIndex < 0, `name ${record.name} is a partition`);
    },
    (key) => keyspace.parseTopicKey(key),
    false,
  );
}
