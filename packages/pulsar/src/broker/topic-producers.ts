// The producers of every topic across the connections of one broker, and the access-mode rules that decide who may
// publish. A producer name is connected to a topic at most once (ProducerBusy), except that ExclusiveWithFencing
// fences whoever holds its name too. Shared producers coexist unless an
// exclusive producer holds the topic or one is waiting for it (ProducerBusy). Exclusive takes a topic nobody
// publishes to and is refused otherwise (ProducerFenced). WaitForExclusive takes a free topic or queues until the
// topic is free. ExclusiveWithFencing fences every other producer, queued ones included, and takes the topic. Each
// grant of exclusive access raises the topic epoch, which a reconnecting exclusive producer sends back: one whose
// epoch is older than the topic's was superseded meanwhile and is fenced. The epoch lives as long as the broker
// process. No I/O: the connections carry out what the callbacks ask.
import { ProducerAccessMode, ServerError } from "../protocol/index.js";

/** A producer as the registry sees it. */
export interface TopicProducerMember {
  readonly name: string;
  /** A {@link ProducerAccessMode} value. */
  readonly accessMode: number;
  /** The topic epoch the client received earlier (a reconnecting exclusive producer), if any. */
  readonly topicEpoch: bigint | undefined;
  /** Another producer took the topic (ExclusiveWithFencing): this one is out of the registry, close it. */
  fenced(): void;
  /** A queued WaitForExclusive producer got the topic with `topicEpoch`. */
  promoted(topicEpoch: bigint): void;
}

/** What `attach` decided. */
export type AttachOutcome =
  /** The producer may publish; exclusive modes get the epoch they were granted, Shared the topic's current one. */
  | { readonly kind: "attached"; readonly topicEpoch: bigint | undefined }
  /** A WaitForExclusive producer queued behind the current producers; `promoted` is called when it gets the topic. */
  | { readonly kind: "queued" }
  /** Refused with a Pulsar server error. */
  | { readonly kind: "refused"; readonly error: number; readonly message: string };

class TopicState {
  /** Attached producers by name. */
  readonly members = new Map<string, TopicProducerMember>();
  /** Queued WaitForExclusive producers, first come first served. */
  waiting: TopicProducerMember[] = [];
  /** Name of the producer holding exclusive access. */
  exclusive: string | undefined;
  epoch: bigint | undefined;

  get idle(): boolean {
    return this.members.size === 0 && this.waiting.length === 0 && this.epoch === undefined;
  }
}

/** The producer registry of one broker (see the module comment). */
export class TopicProducers {
  readonly #topics = new Map<string, TopicState>();

  /** Attaches `member` to `topic` (a canonical topic name) under its access mode's rules. */
  attach(topic: string, member: TopicProducerMember): AttachOutcome {
    const state = this.#state(topic);
    const outcome = this.#decide(topic, state, member);
    if (state.idle) this.#topics.delete(topic);
    return outcome;
  }

  /** Removes `member` (attached or queued) from `topic`; a queued producer gets the topic once nobody else has it. */
  detach(topic: string, member: TopicProducerMember): void {
    const state = this.#topics.get(topic);
    if (state === undefined) return;
    if (state.members.get(member.name) === member) {
      state.members.delete(member.name);
      if (state.exclusive === member.name) state.exclusive = undefined;
    } else {
      state.waiting = state.waiting.filter((waiting) => waiting !== member);
    }
    this.#promoteWaiting(state);
    if (state.idle) this.#topics.delete(topic);
  }

  /** The names of the producers attached to `topic` (queued ones excluded). */
  attachedNames(topic: string): string[] {
    return [...(this.#topics.get(topic)?.members.keys() ?? [])];
  }

  #decide(topic: string, state: TopicState, member: TopicProducerMember): AttachOutcome {
    if (member.accessMode === ProducerAccessMode.ExclusiveWithFencing) {
      this.#fenceAll(state);
      return this.#grant(topic, state, member);
    }
    if (state.members.has(member.name) || state.waiting.some((waiting) => waiting.name === member.name)) {
      return refused(ServerError.ProducerBusy, `producer ${member.name} is already connected to topic ${topic}`);
    }
    switch (member.accessMode) {
      case ProducerAccessMode.Shared:
        if (state.exclusive !== undefined || state.waiting.length > 0) {
          return refused(ServerError.ProducerBusy, `topic ${topic} has an exclusive producer`);
        }
        state.members.set(member.name, member);
        return { kind: "attached", topicEpoch: state.epoch };
      case ProducerAccessMode.Exclusive:
        if (state.exclusive !== undefined || state.waiting.length > 0) {
          return refused(ServerError.ProducerFenced, `topic ${topic} has an exclusive producer`);
        }
        if (state.members.size > 0) return refused(ServerError.ProducerFenced, `topic ${topic} has shared producers`);
        return this.#grant(topic, state, member);
      case ProducerAccessMode.WaitForExclusive:
        if (state.exclusive !== undefined || state.members.size > 0) {
          state.waiting.push(member);
          return { kind: "queued" };
        }
        return this.#grant(topic, state, member);
      default:
        return refused(ServerError.NotAllowedError, `unknown producer access mode ${String(member.accessMode)}`);
    }
  }

  #state(topic: string): TopicState {
    let state = this.#topics.get(topic);
    if (state === undefined) {
      state = new TopicState();
      this.#topics.set(topic, state);
    }
    return state;
  }

  /** Exclusive access for `member`, unless its epoch shows another producer had the topic since. */
  #grant(topic: string, state: TopicState, member: TopicProducerMember): AttachOutcome {
    const current = state.epoch ?? -1n;
    if (member.topicEpoch !== undefined && member.topicEpoch < current) {
      const message = `topic ${topic} moved to epoch ${String(current)} since the producer's epoch ${String(member.topicEpoch)}`;
      return refused(ServerError.ProducerFenced, message);
    }
    state.epoch = member.topicEpoch ?? current + 1n;
    state.exclusive = member.name;
    state.members.set(member.name, member);
    return { kind: "attached", topicEpoch: state.epoch };
  }

  #fenceAll(state: TopicState): void {
    const fenced = [...state.waiting, ...state.members.values()];
    state.waiting = [];
    state.members.clear();
    state.exclusive = undefined;
    for (const member of fenced) member.fenced();
  }

  #promoteWaiting(state: TopicState): void {
    if (state.exclusive !== undefined || state.members.size > 0) return;
    const next = state.waiting.shift();
    if (next === undefined) return;
    state.epoch = (state.epoch ?? -1n) + 1n;
    state.exclusive = next.name;
    state.members.set(next.name, next);
    next.promoted(state.epoch);
  }
}

function refused(error: number, message: string): AttachOutcome {
  return { kind: "refused", error, message };
}
