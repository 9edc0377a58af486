// KafkaAcls record codec (NRM1 recordType "KafkaAcls", schema 1): the entries of one resource pattern, the value of
// its key (acl-keys.ts). Payload, big-endian:
//   resourceType u8, patternType u8, name string (u32 length + UTF-8)
//   entryCount u32 (>= 1), then per entry: principal string, host string, operation u8, permission u8
// Entries are unique and in canonical order (compareEntries); a pattern without entries has no record. The decoder
// checks the pattern against its key and every entry against the creation rules.
import { ByteReader, ByteWriter } from "@nereus/core";
import { RecordChecks, type RecordCodec, decodeRecordEnvelope, encodeRecordEnvelope } from "@nereus/core/internal";
import { bindingProblem } from "./acl-binding-check.js";
import type { PatternAcls } from "./acl-index.js";
import type { AclKeyspace } from "./acl-keys.js";
import type { AclEntry, ResourcePattern } from "./acl-types.js";

const RECORD_TYPE = "KafkaAcls";
const SCHEMA_VERSION = 1;

/** The canonical order of entries in a record: principal, host, operation, permission. */
export function compareEntries(left: AclEntry, right: AclEntry): number {
  if (left.principal !== right.principal) return left.principal < right.principal ? -1 : 1;
  if (left.host !== right.host) return left.host < right.host ? -1 : 1;
  if (left.operation !== right.operation) return left.operation - right.operation;
  return left.permission - right.permission;
}

function check(checks: RecordChecks, acls: PatternAcls): void {
  if (acls.entries.length === 0) throw checks.fail("a pattern record needs at least one entry");
  for (const [index, entry] of acls.entries.entries()) {
    checks.text(`entries[${String(index)}].principal`, entry.principal);
    checks.text(`entries[${String(index)}].host`, entry.host);
    const problem = bindingProblem({ pattern: acls.pattern, entry });
    if (problem !== undefined) throw checks.fail(`entries[${String(index)}]: ${problem}`);
    const previous = acls.entries[index - 1];
    if (previous !== undefined && compareEntries(previous, entry) >= 0)
      throw checks.fail("entries must be unique and in canonical order");
  }
}

function samePattern(left: ResourcePattern, right: ResourcePattern): boolean {
  return left.resourceType === right.resourceType && left.patternType === right.patternType && left.name === right.name;
}

/** The codec of ACL records, bound to a keyspace (`decode` requires the record's own key). */
export function aclRecordCodec(keyspace: AclKeyspace): RecordCodec<PatternAcls> {
  return {
    recordType: RECORD_TYPE,
    schemaVersion: SCHEMA_VERSION,

    encode(acls: PatternAcls): Uint8Array {
      check(new RecordChecks(RECORD_TYPE), acls);
      const writer = new ByteWriter(64)
        .writeU8(acls.pattern.resourceType)
        .writeU8(acls.pattern.patternType)
        .writeString(acls.pattern.name)
        .writeU32(acls.entries.length);
      for (const entry of acls.entries) {
        writer.writeString(entry.principal).writeString(entry.host).writeU8(entry.operation).writeU8(entry.permission);
      }
      return encodeRecordEnvelope(
        { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
        writer.finish(),
      );
    },

    decode(bytes: Uint8Array, key: string): PatternAcls {
      const checks = new RecordChecks(RECORD_TYPE, key);
      try {
        const expected = keyspace.parse(key);
        const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
        const reader = new ByteReader(payload, "KafkaAcls payload");
        const pattern = {
          resourceType: reader.readU8("resourceType"),
          patternType: reader.readU8("patternType"),
          name: reader.readString("name"),
        } as ResourcePattern;
        checks.require(samePattern(pattern, expected), "the pattern does not match its key");
        const count = reader.readU32("entryCount");
        const entries: AclEntry[] = [];
        for (let index = 0; index < count; index += 1) {
          entries.push({
            principal: reader.readString("principal"),
            host: reader.readString("host"),
            operation: reader.readU8("operation"),
            permission: reader.readU8("permission"),
          } as AclEntry);
        }
        reader.expectEnd();
        const acls = { pattern: expected, entries };
        check(checks, acls);
        return acls;
      } catch (error) {
        return checks.wrap(error);
      }
    },
  };
}
