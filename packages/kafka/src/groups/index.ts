// The classic consumer-group coordinator of @nereus/kafka (re-exported from the package root).
export {
  GroupCoordinator,
  createGroupCoordinator,
  type GroupCoordinatorOptions,
  type GroupCoordinatorLogger,
  type GroupCoordinatorMetrics,
  type GroupListing,
  type GroupTopicLookup,
  type GroupRequestContext,
  type GroupApiHandler,
  type GroupApiHandlers,
} from "./group-coordinator.js";
export type { GroupOwnership, CoordinatorEndpoint } from "./group-ownership.js";
export { type GroupClock, type GroupTimer, systemGroupClock } from "./group-clock.js";
export type { GroupOffsets } from "./committed-offset-store.js";
export type { CommittedOffset } from "./committed-offset-codec.js";
export type { GroupState } from "./consumer-group.js";
