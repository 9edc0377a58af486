// @nereus/core/internal: helpers the Nereus providers and adapters share with core (key layout, record codecs,
// byte helpers, generation-0 repair). NOT a stable API: names and signatures change without a major version. Build
// on the root export (`@nereus/core`) and its SPIs instead. Every export is named here.

// Byte helpers beyond the codec ones of the root export.
export { sha256, sha256Hex } from "./bytes/sha256.js";
export { base32LowerNoPad } from "./bytes/base32-lower-no-pad.js";
export { isWellFormedString } from "./bytes/strict-utf8.js";
export { compareBytes, bytesEqual } from "./bytes/compare-bytes.js";
export { copyBytes } from "./bytes/copy-bytes.js";

// Key components and metadata key layout (docs/architecture.md §3.2).
export { encodeKeyComponent, decodeKeyComponent } from "./identity/key-component.js";
export { pad19, parsePad19 } from "./identity/pad19.js";
export { newFencingToken } from "./identity/fencing-token.js";
export { clusterPrefix, streamPrefix, commitIntentKey } from "./keys/stream-keys.js";
export { isPhysicalHash, physicalShard, protectionTypeSlot } from "./keys/physical-key-components.js";
export { PhysicalKeySpace, notKeyOf, type PhysicalRootKeyLocation } from "./keys/physical-key-space.js";
export { parseStreamScopedKey, type StreamKeyLocation } from "./keys/stream-key-parsers.js";

// Storage profiles.
export { canonicalizeProfile } from "./profiles/canonicalize-profile.js";
export { STORAGE_PROFILE_TRAITS } from "./profiles/profile-traits.js";

// Metadata record codecs (docs/architecture.md §8.1) and the stream records they read and write.
export type { RecordCodec } from "./records/record-codec.js";
export { encodeRecordEnvelope, decodeRecordEnvelope } from "./records/record-envelope.js";
export { RecordChecks } from "./records/record-checks.js";
export { defineRecordCodec, matchStreamKey, type RecordCodecSpec } from "./records/define-record-codec.js";
export { WireEnum } from "./records/wire-enum.js";
export { RecordWireIds } from "./records/record-wire-ids.js";
export { readTargetCodec } from "./records/read-target-codec.js";
export { StreamKeyspace, type VersionedHead } from "./records/stream-keyspace.js";

// Derived-record repair, for background workers (generation-0 index repair, materialization planning).
export { ensureGenerationZero } from "./read/ensure-generation-zero.js";
export { repairGenerationZeroIndex, type RepairInput } from "./read/repair-generation-zero-index.js";

// Storage reclamation: the per-stream deletion proof and the metadata a trimmed commit leaves (packages/core/README.md).
export {
  planRelease,
  releaseFloor,
  type OffsetRange,
  type Released,
  type ReleaseInput,
  type ReleasePlan,
  type StoredRecord,
} from "./reclamation/plan-release.js";
export { loadStreamRecords, type StreamRecords } from "./reclamation/load-stream-records.js";
export { trimmedCommitDeletes } from "./reclamation/trimmed-commit-deletes.js";

// Metadata store implementations.
export { PrefixWatchers } from "./spi/prefix-watchers.js";
export { MAX_TXN_OPERATIONS, checkMetadataRequest } from "./spi/check-metadata-request.js";
export { MetadataStoreErrors } from "./spi/metadata-store-errors.js";

// Object store implementations.
export { checkObjectRequest, objectRangeOutside } from "./spi/check-object-request.js";

// Timing.
export { raceAbort } from "./timing/race-abort.js";

// Optional packages of one backend (database drivers, cloud SDKs), loaded when that backend opens.
export { importOptionalDependency, type OptionalDependency } from "./dependencies/import-optional-dependency.js";
