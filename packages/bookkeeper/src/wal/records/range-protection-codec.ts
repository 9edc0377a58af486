// BookKeeperRangeProtection record codec (NRM1 recordType "BookKeeperRangeProtection", schema 1). Payload,
// big-endian:
//   ledgerHash          string (64 hex digits)
//   clusterAlias        string
//   ledgerId            u64
//   firstEntryId        u64
//   entryCount          u32 (>= 1)
//   rangeChecksum       u32
//   type                u8 wire id (REACHABLE_APPEND 1, VISIBLE_GENERATION 2, APPEND_RECOVERY 3, MATERIALIZATION_SOURCE 4)
//   streamId            string
//   ownerKey            string
//   rootLifecycleEpoch  u64
import { defineRecordCodec, type RecordChecks, type RecordCodec } from "@nereus/core/internal";
import { ledgerHash, parseRangeProtectionKey } from "./bookkeeper-wal-keys.js";
import { BookKeeperWalWireIds, type BookKeeperRangeProtection } from "./bookkeeper-wal-records.js";
import { isLedgerId, readLedgerId, writeLedgerId } from "./ledger-id-field.js";

const RECORD_TYPE = "BookKeeperRangeProtection";
const SCHEMA_VERSION = 1;

function validate(protection: BookKeeperRangeProtection, checks: RecordChecks): void {
  checks.sha256Hex("ledgerHash", protection.ledgerHash);
  checks.text("clusterAlias", protection.clusterAlias);
  checks.require(isLedgerId(protection.ledgerId), `ledgerId ${String(protection.ledgerId)} is outside 0..2^63-1`);
  checks.require(
    protection.ledgerHash === ledgerHash(protection.clusterAlias, protection.ledgerId),
    "ledgerHash is not the hash of (clusterAlias, ledgerId)",
  );
  checks.natural("firstEntryId", protection.firstEntryId);
  checks.u32("entryCount", protection.entryCount, 1);
  checks.natural("last entry id", protection.firstEntryId + protection.entryCount - 1);
  checks.u32("rangeChecksum", protection.rangeChecksum);
  checks.require(
    BookKeeperWalWireIds.rangeProtectionType.idOf(protection.type) !== undefined,
    `unknown protection type ${String(protection.type)}`,
  );
  checks.text("streamId", protection.streamId);
  checks.text("ownerKey", protection.ownerKey);
  checks.natural("rootLifecycleEpoch", protection.rootLifecycleEpoch);
}

/**
 * Codec of the BookKeeperRangeProtection record. `decode` requires the key's ledger hash, first entry id and type
 * to be the record's.
 */
export const rangeProtectionCodec: RecordCodec<BookKeeperRangeProtection> = defineRecordCodec({
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,
  validate,
  parseKey: parseRangeProtectionKey,

  matchKey(protection, location, checks) {
    const typeId = BookKeeperWalWireIds.rangeProtectionType.idOf(protection.type);
    checks.require(
      protection.ledgerHash === location.ledgerHash,
      `ledgerHash ${protection.ledgerHash} does not match the key's ${location.ledgerHash}`,
    );
    checks.require(
      protection.firstEntryId === location.firstEntryId,
      `firstEntryId ${String(protection.firstEntryId)} does not match the key's ${String(location.firstEntryId)}`,
    );
    checks.require(
      typeId === location.typeId,
      `type id ${String(typeId)} does not match the key's ${String(location.typeId)}`,
    );
  },

  write(writer, protection) {
    writeLedgerId(writer.writeString(protection.ledgerHash).writeString(protection.clusterAlias), protection.ledgerId)
      .writeU64(protection.firstEntryId)
      .writeU32(protection.entryCount)
      .writeU32(protection.rangeChecksum)
      .writeU8(BookKeeperWalWireIds.rangeProtectionType.idOf(protection.type) ?? 0)
      .writeString(protection.streamId)
      .writeString(protection.ownerKey)
      .writeU64(protection.rootLifecycleEpoch);
  },

  read(reader, checks): BookKeeperRangeProtection {
    return {
      ledgerHash: reader.readString("ledgerHash"),
      clusterAlias: reader.readString("clusterAlias"),
      ledgerId: readLedgerId(reader, "ledgerId"),
      firstEntryId: reader.readU64("firstEntryId"),
      entryCount: reader.readU32("entryCount"),
      rangeChecksum: reader.readU32("rangeChecksum"),
      type: checks.wireValue("protection type", BookKeeperWalWireIds.rangeProtectionType, reader.readU8("type")),
      streamId: reader.readString("streamId"),
      ownerKey: reader.readString("ownerKey"),
      rootLifecycleEpoch: reader.readU64("rootLifecycleEpoch"),
    };
  },
});
