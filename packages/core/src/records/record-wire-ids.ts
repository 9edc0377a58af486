// The wire ids of every enum stored in core records. Durable: never renumber, never reuse a retired id.
import type { PayloadFormat } from "../domain/append-types.js";
import type { GenerationIndexState } from "../domain/generation-records.js";
import type { ObjectSliceTarget } from "../domain/read-target.js";
import type { StorageProfile } from "../domain/storage-profile.js";
import type { StreamState } from "../domain/stream-head.js";
import { WireEnum } from "./wire-enum.js";

/** Wire ids by enum. Only canonical storage profiles have ids (the OBJECT_WAL alias is never persisted). */
export const RecordWireIds = {
  streamState: new WireEnum<StreamState>("StreamState", [
    ["ACTIVE", 1],
    ["SEALED", 2],
    ["DELETING", 3],
    ["DELETED", 4],
  ]),
  storageProfile: new WireEnum<StorageProfile>("StorageProfile", [
    ["OBJECT_WAL_SYNC_OBJECT", 1],
    ["OBJECT_WAL_ASYNC_OBJECT", 2],
    ["BOOKKEEPER_WAL_ONLY", 3],
    ["BOOKKEEPER_WAL_ASYNC_OBJECT", 4],
    ["BOOKKEEPER_WAL_SYNC_OBJECT", 5],
  ]),
  payloadFormat: new WireEnum<PayloadFormat>("PayloadFormat", [
    ["OPAQUE_RECORD_BATCH", 1],
    ["KAFKA_RECORD_BATCH", 2],
    ["PULSAR_ENTRY_BATCH", 3],
  ]),
  objectType: new WireEnum<ObjectSliceTarget["objectType"]>("ObjectType", [
    ["MULTI_STREAM_WAL_OBJECT", 1],
    ["STREAM_GENERATION_OBJECT", 2],
    ["MEMORY_OBJECT", 3],
  ]),
  generationState: new WireEnum<GenerationIndexState>("GenerationIndexState", [
    ["PREPARED", 1],
    ["COMMITTED", 2],
    ["QUARANTINED", 3],
    ["ABORTED", 4],
  ]),
} as const;
