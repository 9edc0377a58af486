// Which ledger manager a BookKeeper cluster uses, read from `<ledgersRoot>/LAYOUT`
// ("<layoutFormatVersion>\n<managerFactoryClass>:<managerVersion>"). The layout decides the znode path of each
// ledger. Hierarchical (the default) and long-hierarchical are supported; flat/MS layouts are refused.
import { ErrorCode, NereusError } from "@nereus/core";

/** Ledger znode layouts this client reads and writes. */
export type LedgerLayout = "hierarchical" | "longhierarchical";

const FACTORIES: ReadonlyMap<string, LedgerLayout> = new Map([
  ["org.apache.bookkeeper.meta.HierarchicalLedgerManagerFactory", "hierarchical"],
  // The legacy factory writes short paths, which is what "hierarchical" does for every id below 2^31-1.
  ["org.apache.bookkeeper.meta.LegacyHierarchicalLedgerManagerFactory", "hierarchical"],
  ["org.apache.bookkeeper.meta.LongHierarchicalLedgerManagerFactory", "longhierarchical"],
]);

/** Parses the LAYOUT znode text. Unknown or unsupported manager factories are UNSUPPORTED_FORMAT. */
export function parseLedgerLayout(text: string): LedgerLayout {
  const lines = text.split("\n");
  const formatVersion = Number(lines[0]);
  if (!Number.isInteger(formatVersion) || formatVersion < 1 || formatVersion > 2) {
    throw new NereusError(ErrorCode.DECODE_ERROR, `LAYOUT format version ${JSON.stringify(lines[0])} is not 1 or 2`);
  }
  const factory = (lines[1] ?? "").split(":")[0] ?? "";
  const layout = FACTORIES.get(factory);
  if (layout === undefined) {
    throw new NereusError(
      ErrorCode.UNSUPPORTED_FORMAT,
      `ledger manager ${JSON.stringify(factory)} is not supported (hierarchical and longhierarchical are)`,
      {
        details: { factory },
      },
    );
  }
  return layout;
}
