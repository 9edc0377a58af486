// Ownership of Kafka partitions and consumer groups among the live brokers, and of Pulsar topics for LOOKUP. The
// owner of each resource is chosen by rendezvous hashing over the live set (rendezvous-owner.ts), so every broker
// answers Metadata, FindCoordinator and LOOKUP alike; the owner claims a partition or group when a request for it
// arrives, with a put-if-absent of a claim key bound to its lease, and only then serves it. A partition claim also
// takes the partition stream's append session with a new epoch, so appends still in flight at a previous holder
// fail in the storage core (fenced, never merged). When the live set changes, a holder whose resource now belongs
// to another broker forgets it, then deletes the claim key; a holder whose lease may have lapsed forgets
// everything. Two brokers never hold one resource at once: a claim key exists for as long as its holder believes it
// holds the resource, and a claim succeeds only once that key is gone. A broker that stops gracefully drains first:
// it names the other live brokers as owners, refuses claims, and forgets and deletes every claim it holds, so the
// others take over as soon as its registration goes.
import { ErrorCode, type MetadataStore, NereusError, type StreamStore, streamIdFromName } from "@nereus/core";
import {
  type BrokerEndpoint,
  type CoordinatorEndpoint,
  type GroupOwnership,
  type PartitionOwnership,
  partitionStreamName,
} from "@nereus/kafka";
import type { OwnerUrls, PulsarTopicOwnership } from "@nereus/pulsar";
import type { BrokerLogger } from "../logging/broker-logger.js";
import type { BrokerMembership } from "./broker-membership.js";
import { type BrokerRecord, kafkaAddressOn } from "./broker-record.js";
import type { ClusterKeys } from "./cluster-keys.js";
import { rendezvousOwner } from "./rendezvous-owner.js";

/** A resource one broker owns. */
type Resource =
  | { readonly kind: "partition"; readonly topicId: string; readonly partition: number }
  | { readonly kind: "group"; readonly groupId: string };

/** Who is told when this broker stops holding a resource. */
export interface OwnershipReleaseListener {
  partitionReleased(topicId: string, partition: number): void;
  groupReleased(groupId: string): void;
}

/** Options of {@link ClusterOwnership}. */
export interface ClusterOwnershipOptions {
  readonly membership: BrokerMembership;
  readonly metadata: MetadataStore;
  readonly store: StreamStore;
  readonly keys: ClusterKeys;
  readonly logger: BrokerLogger;
}

/** A resource this broker holds: the claim key and the revision it was written at. */
interface Held {
  readonly resource: Resource;
  readonly claimKey: string;
  readonly revision: number;
}

function resourceName(resource: Resource): string {
  return resource.kind === "partition"
    ? `partition:${resource.topicId}:${String(resource.partition)}`
    : `group:${resource.groupId}`;
}

/** `record`'s endpoint on Kafka listener `listenerName` (its primary one without a name), if it has that listener. */
function endpointOf(record: BrokerRecord, listenerName?: string): BrokerEndpoint | undefined {
  const address = kafkaAddressOn(record, listenerName);
  return address === undefined ? undefined : { nodeId: record.nodeId, host: address.host, port: address.port };
}

/** See the module comment. Implements the Kafka broker's partition and group ownership. */
export class ClusterOwnership implements PartitionOwnership, GroupOwnership, PulsarTopicOwnership {
  readonly #options: ClusterOwnershipOptions;
  readonly #held = new Map<string, Held>();
  readonly #claims = new Map<string, Promise<boolean>>();
  /** Owners computed over the current live set (cleared when it changes). */
  readonly #owners = new Map<string, number | undefined>();
  #nodeIds: readonly number[] = [];
  #endpoints = new Map<number, BrokerEndpoint>();
  /** The live brokers' records by node id (their per-listener addresses). */
  #records = new Map<number, BrokerRecord>();
  #pulsarUrls = new Map<number, OwnerUrls>();
  #listener: OwnershipReleaseListener | undefined;
  #draining = false;

  constructor(options: ClusterOwnershipOptions) {
    this.#options = options;
    options.membership.onChange(() => this.#liveSetChanged());
  }

  /** Sets who is told about released resources (the Kafka broker and group coordinator). */
  setReleaseListener(listener: OwnershipReleaseListener): void {
    this.#listener = listener;
  }

  /** Resources this broker holds now. */
  get heldCount(): number {
    return this.#options.membership.registered() ? this.#held.size : 0;
  }

  liveBrokers(listenerName?: string): readonly BrokerEndpoint[] {
    if (listenerName === undefined) return [...this.#endpoints.values()];
    return [...this.#records.values()].flatMap((record) => endpointOf(record, listenerName) ?? []);
  }

  controllerId(): number {
    return this.#nodeIds[0] ?? -1;
  }

  partitionLeader(topicId: string, partition: number): number {
    return this.#ownerOf({ kind: "partition", topicId, partition }) ?? -1;
  }

  holdsPartition(topicId: string, partition: number): boolean {
    return this.#holds({ kind: "partition", topicId, partition });
  }

  claimPartition(topicId: string, partition: number): Promise<boolean> {
    return this.#claim({ kind: "partition", topicId, partition });
  }

  coordinatorOf(groupId: string, listenerName?: string): CoordinatorEndpoint | undefined {
    const owner = this.#ownerOf({ kind: "group", groupId });
    if (owner === undefined) return undefined;
    if (listenerName === undefined) return this.#endpoints.get(owner);
    const record = this.#records.get(owner);
    return record === undefined ? undefined : endpointOf(record, listenerName);
  }

  holdsGroup(groupId: string): boolean {
    return this.#holds({ kind: "group", groupId });
  }

  claimGroup(groupId: string): Promise<boolean> {
    return this.#claim({ kind: "group", groupId });
  }

  /**
   * The Pulsar URL of the broker that owns Pulsar topic (or partition) `topic`, chosen by the same rule as Kafka
   * partitions (one owner per stream); undefined while no broker is live or the owner serves no Pulsar clients.
   */
  ownsTopic(topic: string): boolean {
    const { membership } = this.#options;
    return !this.#draining && membership.registered() && this.#ownerOfName(`pulsar:${topic}`) === membership.selfId;
  }

  ownerUrls(topic: string): OwnerUrls | undefined {
    const owner = this.#ownerOfName(`pulsar:${topic}`);
    // This broker while it does not own the topic (its lease may have lapsed): nobody known yet.
    return owner === undefined || owner === this.#options.membership.selfId ? undefined : this.#pulsarUrls.get(owner);
  }

  /**
   * Hands everything over before the broker leaves: from now on the owners named are among the other live brokers,
   * claims fail (requests get NOT_LEADER_OR_FOLLOWER or NOT_COORDINATOR and clients move on), and every held
   * resource is forgotten at once and its claim key deleted. Irreversible; resolves when the deletes are done.
   */
  async drain(): Promise<void> {
    this.#draining = true;
    this.#owners.clear();
    await Promise.all([...this.#held.values()].map((held) => this.#release(held)));
  }

  #ownerOf(resource: Resource): number | undefined {
    return this.#ownerOfName(resourceName(resource));
  }

  #ownerOfName(name: string): number | undefined {
    if (this.#owners.has(name)) return this.#owners.get(name);
    const selfId = this.#options.membership.selfId;
    const candidates = this.#draining ? this.#nodeIds.filter((nodeId) => nodeId !== selfId) : this.#nodeIds;
    const owner = rendezvousOwner(name, candidates);
    this.#owners.set(name, owner);
    return owner;
  }

  #holds(resource: Resource): boolean {
    return this.#options.membership.registered() && this.#held.has(resourceName(resource));
  }

  #isMine(resource: Resource): boolean {
    const { membership } = this.#options;
    return !this.#draining && membership.registered() && this.#ownerOf(resource) === membership.selfId;
  }

  #claim(resource: Resource): Promise<boolean> {
    if (this.#holds(resource)) return Promise.resolve(true);
    if (!this.#isMine(resource)) return Promise.resolve(false);
    const name = resourceName(resource);
    let claim = this.#claims.get(name);
    if (claim === undefined) {
      claim = this.#runClaim(resource).finally(() => this.#claims.delete(name));
      this.#claims.set(name, claim);
    }
    return claim;
  }

  async #runClaim(resource: Resource): Promise<boolean> {
    const { metadata, keys, logger, membership } = this.#options;
    const leaseId = membership.leaseId;
    if (leaseId === undefined) return false;
    const claimKey =
      resource.kind === "partition"
        ? keys.partitionClaimKey(resource.topicId, resource.partition)
        : keys.groupClaimKey(resource.groupId);
    const value = new TextEncoder().encode(`${String(membership.selfId)}/${leaseId}`);
    let revision: number;
    try {
      const result = await metadata.txn({
        compares: [{ key: claimKey, modRevision: 0 }],
        writes: [{ type: "put", key: claimKey, value, leaseId }],
        readOnFailure: [claimKey],
      });
      if (!result.succeeded) {
        const current = result.current.get(claimKey);
        // Our own claim from an attempt whose answer was lost counts; another broker's is released by it soon.
        if (current === undefined || !sameBytes(current.value, value)) return false;
        revision = current.modRevision;
      } else {
        revision = result.revision;
      }
    } catch (error) {
      logger.warn("claiming failed", { resource: resourceName(resource), error: String(error) });
      return false;
    }
    const held: Held = { resource, claimKey, revision };
    if (resource.kind === "partition" && !(await this.#takeAppendSession(resource, held))) return false;
    if (!this.#isMine(resource)) {
      await this.#deleteClaim(held);
      return false;
    }
    this.#held.set(resourceName(resource), held);
    logger.info("claimed", { resource: resourceName(resource) });
    return true;
  }

  /** Takes the partition stream's append session with a new epoch; a stream not created yet has none to take. */
  async #takeAppendSession(resource: Extract<Resource, { kind: "partition" }>, held: Held): Promise<boolean> {
    const streamId = streamIdFromName(partitionStreamName(resource.topicId, resource.partition));
    try {
      await this.#options.store.acquireSession(streamId, { preempt: true });
      return true;
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.STREAM_NOT_FOUND)) return true;
      this.#options.logger.warn("taking the append session failed", {
        resource: resourceName(resource),
        error: String(error),
      });
      await this.#deleteClaim(held);
      return false;
    }
  }

  #liveSetChanged(): void {
    const live = this.#options.membership.live;
    this.#nodeIds = live.map((record) => record.nodeId);
    this.#endpoints = new Map(live.map((record) => [record.nodeId, endpointOf(record)!]));
    this.#records = new Map(live.map((record) => [record.nodeId, record]));
    this.#pulsarUrls = new Map(
      live.flatMap((record) => {
        const urls = pulsarUrlsOf(record);
        return urls === undefined ? [] : [[record.nodeId, urls]];
      }),
    );
    this.#owners.clear();
    for (const held of [...this.#held.values()]) {
      if (!this.#isMine(held.resource)) void this.#release(held);
    }
  }

  /** Forgets `held` at once (and tells the listener), then deletes its claim key. */
  async #release(held: Held): Promise<void> {
    const name = resourceName(held.resource);
    if (this.#held.get(name) !== held) return;
    this.#held.delete(name);
    const resource = held.resource;
    if (resource.kind === "partition") this.#listener?.partitionReleased(resource.topicId, resource.partition);
    else this.#listener?.groupReleased(resource.groupId);
    this.#options.logger.info("released", { resource: name });
    await this.#deleteClaim(held);
  }

  async #deleteClaim(held: Held): Promise<void> {
    try {
      await this.#options.metadata.txn({
        compares: [{ key: held.claimKey, modRevision: held.revision }],
        writes: [{ type: "delete", key: held.claimKey }],
      });
    } catch (error) {
      // The key is bound to this broker's lease: it goes when the lease does.
      this.#options.logger.warn("deleting a claim failed", { key: held.claimKey, error: String(error) });
    }
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/** Where `record`'s broker serves Pulsar clients; undefined when it serves none. */
function pulsarUrlsOf(record: BrokerRecord): OwnerUrls | undefined {
  const { pulsar, pulsarTls } = record;
  const urlTls = pulsarTls === undefined ? undefined : `pulsar+ssl://${pulsarTls.host}:${String(pulsarTls.port)}`;
  if (pulsar === undefined) return urlTls === undefined ? undefined : { url: urlTls, urlTls };
  const url = `pulsar://${pulsar.host}:${String(pulsar.port)}`;
  return urlTls === undefined ? { url } : { url, urlTls };
}
