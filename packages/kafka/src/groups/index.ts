// The classic consumer-group coordinator of @nereus/kafka (re-exported from the package root).
export {
  GroupCoordinator,
  createGroupCoordinator,
  type GroupCoordinatorOptions,
  type GroupCoordinatorLogger,
  type GroupCoordinatorMetrics,
  type GroupClient,
  type GroupTopicLookup,
  type GroupRequestContext,
  type GroupApiHandler,
  type GroupApiHandlers,
  type RequestOf,
} from "./group-coordinator.js";
export { ConsumerGroup, type GroupState, type GroupPolicy, type GroupSummary } from "./consumer-group.js";
export { type GroupClock, type GroupTimer, systemGroupClock } from "./group-clock.js";
export { selectProtocol } from "./select-protocol.js";
export { CommittedOffsetStore, type OffsetToCommit, type GroupOffsets } from "./committed-offset-store.js";
export { committedOffsetCodec, type CommittedOffset } from "./committed-offset-codec.js";
export { groupRootCodec, type GroupRoot } from "./group-root-codec.js";
export {
  committedOffsetKey,
  groupOffsetsPrefix,
  groupRootKey,
  groupRootsPrefix,
  parseCommittedOffsetKey,
  parseGroupRootKey,
  type CommittedOffsetKeyLocation,
  type GroupRootKeyLocation,
} from "./group-keys.js";
