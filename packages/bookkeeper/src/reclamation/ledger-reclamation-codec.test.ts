// The ledger journal record: round trip through its key, and the invariants the codec refuses to store.
import { describe, expect, it } from "vitest";
import { ledgerHash } from "../wal/records/bookkeeper-wal-keys.js";
import { ledgerReclamationCodec } from "./ledger-reclamation-codec.js";
import { ledgerReclamationKey, parseLedgerReclamationKey } from "./ledger-reclamation-keys.js";
import type { LedgerReclamation } from "./ledger-reclamation-records.js";
import { canMoveLedgerRoot } from "./ledger-root-lifecycle.js";

const hash = ledgerHash("bk-1", 1n << 40n);
const entry: LedgerReclamation = {
  streamId: "s-1",
  clusterAlias: "bk-1",
  ledgerId: 1n << 40n,
  ledgerHash: hash,
  state: "MARKED",
  orphan: true,
  releasedAtMillis: 10,
  markedAtMillis: 20,
  deleteNotBeforeMillis: 80,
  deletedAtMillis: 0,
  ledgerLength: 4_096,
};

describe("ledger reclamation records", () => {
  it("round-trip under their key and parse back to the stream and ledger hash", () => {
    const key = ledgerReclamationKey("prod", "s-1", hash);
    expect(parseLedgerReclamationKey(key)).toEqual({ cluster: "prod", streamId: "s-1", ledgerHash: hash });
    expect(ledgerReclamationCodec.decode(ledgerReclamationCodec.encode(entry), key)).toEqual(entry);
    expect(() =>
      ledgerReclamationCodec.decode(ledgerReclamationCodec.encode(entry), ledgerReclamationKey("prod", "s-2", hash)),
    ).toThrow();
  });

  it("refuse entries whose times contradict their state or whose hash is not their ledger's", () => {
    expect(() => ledgerReclamationCodec.encode({ ...entry, state: "RELEASED" })).toThrow(/markedAtMillis/);
    expect(() => ledgerReclamationCodec.encode({ ...entry, state: "DELETED" })).toThrow(/deletedAtMillis/);
    expect(() => ledgerReclamationCodec.encode({ ...entry, ledgerId: 7n })).toThrow(/ledgerHash/);
  });

  it("let the collector move a root only SEALED → MARKED → DELETING → DELETED, or back from MARKED", () => {
    expect(canMoveLedgerRoot("SEALED", "MARKED")).toBe(true);
    expect(canMoveLedgerRoot("MARKED", "SEALED")).toBe(true);
    expect(canMoveLedgerRoot("MARKED", "DELETING")).toBe(true);
    expect(canMoveLedgerRoot("DELETING", "DELETED")).toBe(true);
    expect(canMoveLedgerRoot("ACTIVE", "MARKED")).toBe(false);
    expect(canMoveLedgerRoot("SEALING", "MARKED")).toBe(false);
    expect(canMoveLedgerRoot("DELETING", "SEALED")).toBe(false);
    expect(canMoveLedgerRoot("DELETED", "SEALED")).toBe(false);
  });
});
