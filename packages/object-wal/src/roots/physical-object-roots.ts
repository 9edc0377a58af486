// Physical-object roots and protections in metadata, for one cluster: create a root (put-if-absent-or-equal, so a
// retried or response-lost create converges), load one, and build the protection a transaction must carry to name
// an object (a compare on the root's exact revision — the root is ACTIVE at that revision — plus the protection
// record). Comparing the root revision inside the owner's own transaction closes the mark/create race atomically:
// a collector that marks the root first makes the owner's transaction fail. Never deletes anything.
import { ErrorCode, NereusError, type MetadataStore, type RevisionCompare, type WriteOp } from "@nereus/core";
import { base32LowerNoPad, sha256 } from "@nereus/core/internal";
import { putIfAbsentOrEqual } from "../records/put-if-absent-or-equal.js";
import { objectProtectionCodec } from "./object-protection-codec.js";
import { objectKeyHash, objectProtectionKey, physicalObjectRootKey } from "./physical-object-keys.js";
import { physicalObjectRootCodec } from "./physical-object-root-codec.js";
import {
  PhysicalObjectWireIds,
  type ObjectProtectionType,
  type PhysicalObjectRoot,
} from "./physical-object-records.js";

const encoder = new TextEncoder();

/** A root as stored, with the revision a protecting transaction compares. */
export interface VersionedRoot {
  readonly root: PhysicalObjectRoot;
  readonly revision: number;
}

/** The protection a transaction carries: compare the root's revision, write the protection record. */
export interface RootProtection {
  readonly compares: readonly RevisionCompare[];
  readonly writes: readonly WriteOp[];
}

export interface ProtectionRequest {
  readonly type: ObjectProtectionType;
  readonly streamId: string;
  /** Metadata key of the owner record. */
  readonly ownerKey: string;
}

/** Roots and protections of one cluster's objects. */
export class PhysicalObjectRoots {
  readonly cluster: string;

  constructor(cluster: string) {
    this.cluster = cluster;
  }

  rootKey(objectKey: string): string {
    return physicalObjectRootKey(this.cluster, objectKeyHash(objectKey));
  }

  /** Creates `root` (ACTIVE) unless it exists with exactly these bytes; returns its revision. */
  async create(metadata: MetadataStore, root: PhysicalObjectRoot, signal?: AbortSignal): Promise<VersionedRoot> {
    const revision = await putIfAbsentOrEqual(
      metadata,
      physicalObjectRootKey(this.cluster, root.objectKeyHash),
      physicalObjectRootCodec.encode(root),
      signal,
    );
    return { root, revision };
  }

  /** The stored root of `objectKey`, or undefined. */
  async load(metadata: MetadataStore, objectKey: string, signal?: AbortSignal): Promise<VersionedRoot | undefined> {
    const key = this.rootKey(objectKey);
    const stored = await metadata.get(key, { signal });
    if (stored === undefined) return undefined;
    const root = physicalObjectRootCodec.decode(stored.value, key);
    if (root.objectKey !== objectKey) {
      throw new NereusError(
        ErrorCode.METADATA_INVARIANT_VIOLATION,
        `root ${key} names object ${root.objectKey}, not ${objectKey}`,
        { retryable: false },
      );
    }
    return { root, revision: stored.modRevision };
  }

  /**
   * The compares and writes that create `root` (ACTIVE) and protect it for `request`'s owner in one transaction:
   * the root key must be absent. For an object only this owner names (a single-slice WAL object), so the root
   * becomes durable with the first record that references the object; a transaction that loses the absence
   * compare commits nothing.
   */
  creatingProtection(root: PhysicalObjectRoot, request: ProtectionRequest): RootProtection {
    // Revision 0 makes the root compare a compare on absence (MetadataStore SPI).
    const protection = this.protection({ root, revision: 0 }, request);
    const rootPut: WriteOp = {
      type: "put",
      key: physicalObjectRootKey(this.cluster, root.objectKeyHash),
      value: physicalObjectRootCodec.encode(root),
    };
    return { compares: protection.compares, writes: [rootPut, ...protection.writes] };
  }

  /**
   * The compares and writes that protect `versioned`'s object for `request`'s owner. Throws
   * METADATA_CONDITION_FAILED when the root is not ACTIVE (a collector owns it: the object must not be named).
   */
  protection(versioned: VersionedRoot, request: ProtectionRequest): RootProtection {
    const { root, revision } = versioned;
    if (root.lifecycle !== "ACTIVE") {
      throw new NereusError(
        ErrorCode.METADATA_CONDITION_FAILED,
        `object ${root.objectKey} is ${root.lifecycle}; it may not be referenced`,
        {
          retryable: false,
          details: { objectKey: root.objectKey, lifecycle: root.lifecycle },
        },
      );
    }
    const referenceId = protectionReferenceId(request.type, request.streamId, request.ownerKey, root.objectKeyHash);
    const typeId = PhysicalObjectWireIds.protectionType.idOf(request.type) ?? 0;
    const value = objectProtectionCodec.encode({
      objectKeyHash: root.objectKeyHash,
      type: request.type,
      referenceId,
      ownerKey: request.ownerKey,
      streamId: request.streamId,
      rootLifecycleEpoch: root.lifecycleEpoch,
    });
    return {
      compares: [{ key: physicalObjectRootKey(this.cluster, root.objectKeyHash), modRevision: revision }],
      writes: [{ type: "put", key: objectProtectionKey(this.cluster, root.objectKeyHash, typeId, referenceId), value }],
    };
  }
}

/**
 * Deterministic reference id of a protection: `ra1-` (REACHABLE_APPEND) or `vg1-` (VISIBLE_GENERATION) +
 * base32(sha256(streamId ‖ 0 ‖ ownerKey ‖ 0 ‖ objectKeyHash)).
 */
export function protectionReferenceId(
  type: ObjectProtectionType,
  streamId: string,
  ownerKey: string,
  keyHash: string,
): string {
  const prefix = type === "REACHABLE_APPEND" ? "ra1-" : "vg1-";
  return prefix + base32LowerNoPad(sha256(encoder.encode(`${streamId}\0${ownerKey}\0${keyHash}`)));
}
