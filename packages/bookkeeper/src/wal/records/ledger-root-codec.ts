// BookKeeperLedgerRoot record codec (NRM1 recordType "BookKeeperLedgerRoot", schema 1). Payload, big-endian:
//   clusterAlias       string
//   ledgerId           u64
//   ledgerHash         string (64 hex digits; = ledgerHash(clusterAlias, ledgerId))
//   streamId           string
//   segmentSequence    u64
//   allocationId       string
//   ownerWriterId      string
//   ownerWriterEpoch   u64
//   ensembleSize       u8
//   writeQuorumSize    u8
//   ackQuorumSize      u8
//   digestType         u8 wire id (CRC32 1, HMAC 2, CRC32C 3, DUMMY 4)
//   lifecycle          u8 wire id (ACTIVE 1, SEALING 2, SEALED 3, MARKED 4, DELETING 5, DELETED 6, QUARANTINED 7)
//   lifecycleEpoch     u64
//   createdAtMillis    u64
//   sealedEntryCount   u64
//   sealedLength       u64
import { defineRecordCodec, type RecordChecks, type RecordCodec } from "@nereus/core/internal";
import { ledgerHash, parseLedgerRootKey } from "./bookkeeper-wal-keys.js";
import { BookKeeperWalWireIds, type BookKeeperLedgerRoot } from "./bookkeeper-wal-records.js";
import { isLedgerId, readLedgerId, writeLedgerId } from "./ledger-id-field.js";

const RECORD_TYPE = "BookKeeperLedgerRoot";
const SCHEMA_VERSION = 1;

function validate(root: BookKeeperLedgerRoot, checks: RecordChecks): void {
  checks.text("clusterAlias", root.clusterAlias);
  checks.require(isLedgerId(root.ledgerId), `ledgerId ${String(root.ledgerId)} is outside 0..2^63-1`);
  checks.sha256Hex("ledgerHash", root.ledgerHash);
  checks.require(
    root.ledgerHash === ledgerHash(root.clusterAlias, root.ledgerId),
    "ledgerHash is not the hash of (clusterAlias, ledgerId)",
  );
  checks.text("streamId", root.streamId);
  checks.natural("segmentSequence", root.segmentSequence);
  checks.text("allocationId", root.allocationId);
  checks.text("owner.writerId", root.owner.writerId);
  checks.natural("owner.writerEpoch", root.owner.writerEpoch);
  const quorums = [root.ensembleSize, root.writeQuorumSize, root.ackQuorumSize];
  checks.require(
    quorums.every((value) => Number.isInteger(value) && value >= 1 && value <= 255) &&
      root.ensembleSize >= root.writeQuorumSize &&
      root.writeQuorumSize >= root.ackQuorumSize,
    `quorums ${quorums.join("/")} must satisfy 255 ≥ ensemble ≥ write ≥ ack ≥ 1`,
  );
  checks.require(
    BookKeeperWalWireIds.digestType.idOf(root.digestType) !== undefined,
    `unknown digest type ${String(root.digestType)}`,
  );
  checks.require(
    BookKeeperWalWireIds.ledgerRootLifecycle.idOf(root.lifecycle) !== undefined,
    `unknown lifecycle ${String(root.lifecycle)}`,
  );
  checks.natural("lifecycleEpoch", root.lifecycleEpoch);
  checks.natural("createdAtMillis", root.createdAtMillis);
  checks.natural("sealedEntryCount", root.sealedEntryCount);
  checks.natural("sealedLength", root.sealedLength);
  if (root.lifecycle === "ACTIVE" || root.lifecycle === "SEALING") {
    checks.require(
      root.sealedEntryCount === 0 && root.sealedLength === 0,
      `a ${root.lifecycle} root has no sealed end yet`,
    );
  }
}

/**
 * Codec of the BookKeeperLedgerRoot record. `decode` requires the key's ledger hash to match the record's (and the
 * record's hash to be the hash of its alias and ledger id).
 */
export const ledgerRootCodec: RecordCodec<BookKeeperLedgerRoot> = defineRecordCodec({
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,
  validate,
  parseKey: parseLedgerRootKey,

  matchKey(root, location, checks) {
    checks.require(
      root.ledgerHash === location.ledgerHash,
      `ledgerHash ${root.ledgerHash} does not match the key's ${location.ledgerHash}`,
    );
  },

  write(writer, root) {
    writeLedgerId(writer.writeString(root.clusterAlias), root.ledgerId)
      .writeString(root.ledgerHash)
      .writeString(root.streamId)
      .writeU64(root.segmentSequence)
      .writeString(root.allocationId)
      .writeString(root.owner.writerId)
      .writeU64(root.owner.writerEpoch)
      .writeU8(root.ensembleSize)
      .writeU8(root.writeQuorumSize)
      .writeU8(root.ackQuorumSize)
      .writeU8(BookKeeperWalWireIds.digestType.idOf(root.digestType) ?? 0)
      .writeU8(BookKeeperWalWireIds.ledgerRootLifecycle.idOf(root.lifecycle) ?? 0)
      .writeU64(root.lifecycleEpoch)
      .writeU64(root.createdAtMillis)
      .writeU64(root.sealedEntryCount)
      .writeU64(root.sealedLength);
  },

  read(reader, checks): BookKeeperLedgerRoot {
    return {
      clusterAlias: reader.readString("clusterAlias"),
      ledgerId: readLedgerId(reader, "ledgerId"),
      ledgerHash: reader.readString("ledgerHash"),
      streamId: reader.readString("streamId"),
      segmentSequence: reader.readU64("segmentSequence"),
      allocationId: reader.readString("allocationId"),
      owner: { writerId: reader.readString("ownerWriterId"), writerEpoch: reader.readU64("ownerWriterEpoch") },
      ensembleSize: reader.readU8("ensembleSize"),
      writeQuorumSize: reader.readU8("writeQuorumSize"),
      ackQuorumSize: reader.readU8("ackQuorumSize"),
      digestType: checks.wireValue("digest type", BookKeeperWalWireIds.digestType, reader.readU8("digestType")),
      lifecycle: checks.wireValue("lifecycle", BookKeeperWalWireIds.ledgerRootLifecycle, reader.readU8("lifecycle")),
      lifecycleEpoch: reader.readU64("lifecycleEpoch"),
      createdAtMillis: reader.readU64("createdAtMillis"),
      sealedEntryCount: reader.readU64("sealedEntryCount"),
      sealedLength: reader.readU64("sealedLength"),
    };
  },
});
