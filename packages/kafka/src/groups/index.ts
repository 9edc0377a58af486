// The classic consumer-group coordinator of @nereus/kafka (re-exported from the package root).
export {
  GroupCoordinator,
  createGroupCoordinator,
  type GroupCoordinatorOptions,
  type GroupCoordinatorLogger,
  type GroupCoordinatorMetrics,
  type GroupTopicLookup,
  type GroupRequestContext,
  type GroupApiHandler,
  type GroupApiHandlers,
} from "./group-coordinator.js";
export { type GroupClock, type GroupTimer, systemGroupClock } from "./group-clock.js";
