// Which broker coordinates each consumer group when several brokers share one cluster. Without it, the coordinator
// answers every group itself. With it, FindCoordinator names each group's owner among the live brokers and the group
// APIs are served only for groups this broker holds; the others answer NOT_COORDINATOR so that clients look the
// coordinator up again. A group's membership lives in its coordinator's memory, and its last Stable generation is
// stored in metadata as well: when the group moves, the new coordinator continues that generation (members keep
// heartbeating and committing), and its committed offsets, stored in metadata, carry over.

/** A broker as clients reach it. */
export interface CoordinatorEndpoint {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
}

/**
 * The coordinator's view of group ownership. Invariant: `holdsGroup` is true only between a successful `claimGroup`
 * and the group's release (the implementation guarantees no two live brokers hold one group at once).
 */
export interface GroupOwnership {
  /**
   * The broker that coordinates `groupId` at its address on listener `listenerName` (its primary address without
   * one), or undefined while no broker is live or the coordinator has no such listener.
   */
  coordinatorOf(groupId: string, listenerName?: string): CoordinatorEndpoint | undefined;
  /** True while this broker holds the group. */
  holdsGroup(groupId: string): boolean;
  /** Claims the group when this broker is its coordinator and does not hold it yet; resolves whether it holds it. */
  claimGroup(groupId: string): Promise<boolean>;
}
