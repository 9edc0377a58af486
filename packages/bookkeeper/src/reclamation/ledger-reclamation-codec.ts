// LedgerReclamation record codec (NRM1 recordType "LedgerReclamation", schema 1). Payload layout, big-endian:
//   streamId               string
//   clusterAlias           string
//   ledgerId               u64
//   ledgerHash             string (64 hex digits; = ledgerHash(clusterAlias, ledgerId))
//   state                  u8 wire id (RELEASED 1, MARKED 2, DELETING 3, DELETED 4)
//   orphan                 u8 (0 or 1)
//   releasedAtMillis       u64
//   markedAtMillis         u64
//   deleteNotBeforeMillis  u64
//   deletedAtMillis        u64
//   ledgerLength           u64
import { defineRecordCodec, type RecordChecks, type RecordCodec } from "@nereus/core/internal";
import { ledgerHash } from "../wal/records/bookkeeper-wal-keys.js";
import { isLedgerId, readLedgerId, writeLedgerId } from "../wal/records/ledger-id-field.js";
import { parseLedgerReclamationKey } from "./ledger-reclamation-keys.js";
import { LedgerReclamationWireIds, type LedgerReclamation } from "./ledger-reclamation-records.js";

function validate(entry: LedgerReclamation, checks: RecordChecks): void {
  checks.text("streamId", entry.streamId);
  checks.text("clusterAlias", entry.clusterAlias);
  checks.require(isLedgerId(entry.ledgerId), `ledgerId ${String(entry.ledgerId)} is outside 0..2^63-1`);
  checks.sha256Hex("ledgerHash", entry.ledgerHash);
  checks.require(
    entry.ledgerHash === ledgerHash(entry.clusterAlias, entry.ledgerId),
    "ledgerHash is not the hash of (clusterAlias, ledgerId)",
  );
  checks.require(
    LedgerReclamationWireIds.state.idOf(entry.state) !== undefined,
    `unknown state ${String(entry.state)}`,
  );
  checks.natural("releasedAtMillis", entry.releasedAtMillis);
  checks.natural("markedAtMillis", entry.markedAtMillis);
  checks.natural("deleteNotBeforeMillis", entry.deleteNotBeforeMillis);
  checks.natural("deletedAtMillis", entry.deletedAtMillis);
  checks.natural("ledgerLength", entry.ledgerLength);
  checks.require(
    (entry.state === "RELEASED") === (entry.markedAtMillis === 0),
    "markedAtMillis is set exactly from MARKED on",
  );
  checks.require(entry.deleteNotBeforeMillis >= entry.markedAtMillis, "deleteNotBeforeMillis precedes markedAtMillis");
  checks.require(
    (entry.state === "DELETED") === entry.deletedAtMillis > 0,
    "deletedAtMillis is set exactly when DELETED",
  );
}

/** Codec of the LedgerReclamation record. `decode` requires the key's stream and ledger hash to match. */
export const ledgerReclamationCodec: RecordCodec<LedgerReclamation> = defineRecordCodec({
  recordType: "LedgerReclamation",
  schemaVersion: 1,
  validate,
  parseKey: parseLedgerReclamationKey,

  matchKey(entry, location, checks) {
    checks.sameStream(entry.streamId, location.streamId);
    checks.require(
      entry.ledgerHash === location.ledgerHash,
      `ledgerHash ${entry.ledgerHash} does not match the key's ${location.ledgerHash}`,
    );
  },

  write(writer, entry) {
    writeLedgerId(writer.writeString(entry.streamId).writeString(entry.clusterAlias), entry.ledgerId)
      .writeString(entry.ledgerHash)
      .writeU8(LedgerReclamationWireIds.state.idOf(entry.state) ?? 0)
      .writeU8(entry.orphan ? 1 : 0)
      .writeU64(entry.releasedAtMillis)
      .writeU64(entry.markedAtMillis)
      .writeU64(entry.deleteNotBeforeMillis)
      .writeU64(entry.deletedAtMillis)
      .writeU64(entry.ledgerLength);
  },

  read(reader, checks): LedgerReclamation {
    const streamId = reader.readString("streamId");
    const clusterAlias = reader.readString("clusterAlias");
    const ledgerId = readLedgerId(reader, "ledgerId");
    const hash = reader.readString("ledgerHash");
    const state = checks.wireValue("state", LedgerReclamationWireIds.state, reader.readU8("state"));
    const orphan = reader.readU8("orphan");
    checks.require(orphan === 0 || orphan === 1, `orphan flag ${String(orphan)} is not 0 or 1`);
    return {
      streamId,
      clusterAlias,
      ledgerId,
      ledgerHash: hash,
      state,
      orphan: orphan === 1,
      releasedAtMillis: reader.readU64("releasedAtMillis"),
      markedAtMillis: reader.readU64("markedAtMillis"),
      deleteNotBeforeMillis: reader.readU64("deleteNotBeforeMillis"),
      deletedAtMillis: reader.readU64("deletedAtMillis"),
      ledgerLength: reader.readU64("ledgerLength"),
    };
  },
});
