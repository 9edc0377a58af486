// Rendezvous (highest-random-weight) hashing: each resource goes to the live node whose hash of (resource, node) is
// highest. Every broker that sees the same live set picks the same owner, and a join or leave moves only the
// resources the joining node wins or the leaving node held.
import { createHash } from "node:crypto";

/** The weight of `nodeId` for `resource`: the first 48 bits of SHA-256 over both. */
function weight(resource: string, nodeId: number): number {
  return createHash("sha256")
    .update(`${resource}\u0000${String(nodeId)}`)
    .digest()
    .readUIntBE(0, 6);
}

/**
 * The owner of `resource` among `nodeIds`: the highest weight, the lower node id on a tie; undefined for an empty
 * set. Deterministic: depends only on the resource and the set, not on the order of `nodeIds`.
 */
export function rendezvousOwner(resource: string, nodeIds: readonly number[]): number | undefined {
  let owner: number | undefined;
  let best = -1;
  for (const nodeId of nodeIds) {
    const candidate = weight(resource, nodeId);
    if (candidate > best || (candidate === best && owner !== undefined && nodeId < owner)) {
      best = candidate;
      owner = nodeId;
    }
  }
  return owner;
}
