// Physical-object roots and protections (docs/architecture.md §8.2): the durable facts a later garbage collector needs before it
// may ever delete an object. A root exists for every object this package uploads (created before any head can
// name it); a protection is a durable veto bound to an owner record (the commit intent that references a WAL
// slice, the generation index entry that publishes a generation object). Nothing in this package deletes objects
// or protections; the lifecycle values beyond ACTIVE are reserved for that later collector.
import { WireEnum } from "@nereus/core/internal";

/** What an object is (decides which reference domains a collector must consult). */
export type PhysicalObjectKind = "OBJECT_WAL" | "STREAM_GENERATION";

/** Root lifecycle: ACTIVE → MARKED → DELETING → DELETED (+ QUARANTINED). Only ACTIVE is ever written here. */
export type PhysicalObjectLifecycle = "ACTIVE" | "MARKED" | "DELETING" | "DELETED" | "QUARANTINED";

/**
 * One object's root. Identity fields are immutable; a second writer of the same key with a different identity is a
 * METADATA_INVARIANT_VIOLATION (object keys are never reused).
 */
export interface PhysicalObjectRoot {
  /** Store-relative object key. */
  readonly objectKey: string;
  /** Hex SHA-256 of `objectKey` (the metadata key's identity). */
  readonly objectKeyHash: string;
  /** The object id written into the object (NRS1 `attemptKey`). */
  readonly objectId: string;
  readonly kind: PhysicalObjectKind;
  readonly lifecycle: PhysicalObjectLifecycle;
  /** +1 per lifecycle transition; protections record the epoch they were created under. */
  readonly lifecycleEpoch: number;
  readonly writerId: string;
  /** Process run that uploaded the object (a crashed run's objects are orphan candidates). */
  readonly processRunId: string;
  readonly createdAtMillis: number;
  /** A collector may treat the object as an orphan only after this time and only without protections. */
  readonly orphanNotBeforeMillis: number;
  /** Exact byte length of the object. */
  readonly objectLength: number;
  /** CRC32C of the exact stored bytes (what the store validated on upload). */
  readonly storageChecksum: number;
  readonly formatMajor: number;
  readonly formatMinor: number;
  readonly sliceCount: number;
  /** Where the NRS1 manifest is: a collector verifies and reads it to find every stream with a slice. */
  readonly manifestOffset: number;
  readonly manifestLength: number;
  readonly manifestChecksum: number;
}

/** Kinds of protection (wire ids double as the key's `typeId02`). */
export type ObjectProtectionType = "REACHABLE_APPEND" | "VISIBLE_GENERATION";

/**
 * A durable reference to an object. Removable only after its owner (`ownerKey`) is proven stale or retired; an
 * owner that cannot be verified is a veto.
 */
export interface ObjectProtection {
  readonly objectKeyHash: string;
  readonly type: ObjectProtectionType;
  /** Deterministic per (type, owner): `ra1-…` for appends, `vg1-…` for generations. */
  readonly referenceId: string;
  /** Metadata key of the owner record (commit intent, generation index entry). */
  readonly ownerKey: string;
  readonly streamId: string;
  /** Root lifecycle epoch the protection was created under. */
  readonly rootLifecycleEpoch: number;
}

/** Durable wire ids of the enums above. Never renumber. */
export const PhysicalObjectWireIds = {
  kind: new WireEnum<PhysicalObjectKind>("PhysicalObjectKind", [
    ["OBJECT_WAL", 1],
    ["STREAM_GENERATION", 2],
  ]),
  lifecycle: new WireEnum<PhysicalObjectLifecycle>("PhysicalObjectLifecycle", [
    ["ACTIVE", 1],
    ["MARKED", 2],
    ["DELETING", 3],
    ["DELETED", 4],
    ["QUARANTINED", 5],
  ]),
  protectionType: new WireEnum<ObjectProtectionType>("ObjectProtectionType", [
    ["REACHABLE_APPEND", 1],
    ["VISIBLE_GENERATION", 2],
  ]),
} as const;
