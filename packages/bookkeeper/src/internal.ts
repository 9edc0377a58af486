// @nereus/bookkeeper/internal: helpers Nereus tooling shares with the BookKeeper WAL (the entry frame size, for
// benchmarks that compare a raw ledger add of the same size). NOT a stable API: names and signatures change without
// a major version. Build on the root export (`@nereus/bookkeeper`) instead. Every export is named here.

export { ENTRY_FRAME_OVERHEAD } from "./wal/entry-frame.js";
