// Which broker leads each partition when several brokers share one cluster. Without it, the broker leads every
// partition itself (one logical broker). With it, Metadata names each partition's owner and lists the live brokers,
// and Produce, Fetch and ListOffsets are served only for partitions this broker holds; the others answer
// NOT_LEADER_OR_FOLLOWER so that clients refresh their metadata and go to the owner.

/** A live broker as clients reach it. */
export interface BrokerEndpoint {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
}

/**
 * The broker's view of partition leadership. Invariants: `holdsPartition` is true only between a successful
 * `claimPartition` and the partition's release (the implementation guarantees no two live brokers hold one partition
 * at once); every answer is about the same live set until it changes.
 */
export interface PartitionOwnership {
  /**
   * The live brokers, this one included, by ascending node id, at their addresses on listener `listenerName` (the
   * listener the asking client came in on; brokers without that listener are left out). Without a listener name,
   * their primary addresses.
   */
  liveBrokers(listenerName?: string): readonly BrokerEndpoint[];
  /** The node id Metadata reports as controller (the same on every live broker). */
  controllerId(): number;
  /** The node that leads the partition, or -1 when no broker is live. */
  partitionLeader(topicId: string, partition: number): number;
  /** True while this broker holds the partition. */
  holdsPartition(topicId: string, partition: number): boolean;
  /**
   * Claims the partition when this broker is its leader and does not hold it yet (taking its append session, which
   * fences a previous holder's appends). Resolves whether this broker holds it; never rejects.
   */
  claimPartition(topicId: string, partition: number): Promise<boolean>;
}
