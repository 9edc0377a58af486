// One member of a classic consumer group as the coordinator holds it in memory: identity, timeouts, the protocols
// (assignors) it supports with their metadata, its current assignment, and the JoinGroup/SyncGroup request it is
// parked on, if any. Byte fields are copies owned by the member (request bytes are views into frames).
import { bytesEqual } from "@nereus/core/internal";
import type { GroupTimer } from "./group-clock.js";

/** A protocol (assignor) a member supports, with its opaque metadata (the subscription). */
export interface MemberProtocol {
  readonly name: string;
  readonly metadata: Uint8Array;
}

/** What a parked JoinGroup request is answered with. */
export interface JoinOutcome {
  readonly errorCode: number;
  readonly generationId: number;
  readonly protocolType: string | null;
  readonly protocolName: string | null;
  readonly leader: string;
  readonly memberId: string;
  /** Every member with its metadata for the chosen protocol: for the leader only; empty for the others. */
  readonly members: readonly {
    readonly memberId: string;
    readonly groupInstanceId: string | null;
    readonly metadata: Uint8Array;
  }[];
}

/** What a parked SyncGroup request is answered with. */
export interface SyncOutcome {
  readonly errorCode: number;
  readonly protocolType: string | null;
  readonly protocolName: string | null;
  /** Never null: empty when the member has no assignment. */
  readonly assignment: Uint8Array;
}

export const EMPTY_BYTES = new Uint8Array(0);

/** Mutable member state; only ConsumerGroup changes it. */
export class GroupMember {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  readonly protocolType: string;
  protocols: readonly MemberProtocol[];
  assignment: Uint8Array = EMPTY_BYTES;
  awaitingJoin: ((outcome: JoinOutcome) => void) | undefined;
  awaitingSync: ((outcome: SyncOutcome) => void) | undefined;
  sessionTimer: GroupTimer | undefined;

  constructor(init: {
    memberId: string;
    groupInstanceId: string | null;
    clientId: string;
    clientHost: string;
    sessionTimeoutMs: number;
    rebalanceTimeoutMs: number;
    protocolType: string;
    protocols: readonly MemberProtocol[];
  }) {
    this.memberId = init.memberId;
    this.groupInstanceId = init.groupInstanceId;
    this.clientId = init.clientId;
    this.clientHost = init.clientHost;
    this.sessionTimeoutMs = init.sessionTimeoutMs;
    this.rebalanceTimeoutMs = init.rebalanceTimeoutMs;
    this.protocolType = init.protocolType;
    this.protocols = init.protocols.map((protocol) => ({ name: protocol.name, metadata: protocol.metadata.slice() }));
  }

  /** The metadata this member sent for `protocolName` (empty when it does not support it). */
  metadataFor(protocolName: string | null): Uint8Array {
    return this.protocols.find((protocol) => protocol.name === protocolName)?.metadata ?? EMPTY_BYTES;
  }

  /** True when `protocols` equal this member's protocols (names, order and metadata bytes). */
  matches(protocols: readonly MemberProtocol[]): boolean {
    if (protocols.length !== this.protocols.length) return false;
    return protocols.every((protocol, index) => {
      const own = this.protocols[index];
      return own !== undefined && own.name === protocol.name && bytesEqual(own.metadata, protocol.metadata);
    });
  }
}
