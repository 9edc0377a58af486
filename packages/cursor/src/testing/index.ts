// Conformance suites and test helpers of @nereus/cursor: the cursor conformance suite any metadata/object store
// pair runs, the model-based history property, the in-memory fixture, and the fault-injecting simulated process.
export { describeCursorConformance } from "./cursor-conformance.js";
export type {
  CursorConformanceFixture,
  CursorStoreClients,
  OpenCursorConformanceFixture,
} from "./cursor-conformance-fixture.js";
export {
  checkCursorHistories,
  describeCursorHistoryProperty,
  type CursorHistoryOptions,
} from "./cursor-history-property.js";
export { HistoryStats } from "./cursor-history-run.js";
export { memoryCursorFixture, memoryWalStreamStore } from "./memory-cursor-fixture.js";
export { SimulatedProcess, type DurableStep, type SharedStores, type StepFault } from "./simulated-process.js";
export { retentionInvariantProblem } from "./retention-invariant.js";
