// Deterministic hostile Pulsar frames for fuzzing the listener: a small seeded PRNG, valid base frames (CONNECT,
// PRODUCER, SEND, SUBSCRIBE, FLOW, ACK, PING) and mutations of them. Soft mutations (none, flipped entry bytes,
// bad checksums) leave a decodable frame; hard ones (flipped bytes anywhere, truncations, oversized and undersized
// totalSize or commandSize fields, unknown command types, random garbage) break the framing or the command. Each
// mutated frame is returned with the name of its mutation so a test can count them.
import {
  AckType,
  SubscriptionType,
  encodeCommandFrame,
  encodeMessageEntry,
  encodePayloadFrame,
} from "@nereus/pulsar/protocol";

/** A PRNG (mulberry32): the same seed gives the same sequence. */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [0, bound). */
  below(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }

  bytes(count: number): Uint8Array {
    const out = new Uint8Array(count);
    for (let index = 0; index < count; index += 1) out[index] = this.below(256);
    return out;
  }
}

/** Where a connection's frames point: its topic and the ids its valid PRODUCER and SUBSCRIBE opened. */
export interface FuzzTarget {
  readonly topic: string;
  readonly producerId: bigint;
  readonly consumerId: bigint;
}

/** The valid CONNECT every fuzzing connection opens with. */
export const CONNECT_FRAME = encodeCommandFrame({
  type: "CONNECT",
  body: { clientVersion: "fuzz", protocolVersion: 19 },
});

/**
 * Valid frames that open a producer and a Shared subscription on the target's topic. The producer's name is left to
 * the broker: a name is connected to a topic once, and connections share topics.
 */
export function openingFrames(target: FuzzTarget): Uint8Array[] {
  return [
    encodeCommandFrame({
      type: "PRODUCER",
      body: { topic: target.topic, producerId: target.producerId, requestId: 1n },
    }),
    encodeCommandFrame({
      type: "SUBSCRIBE",
      body: {
        topic: target.topic,
        subscription: "fuzz",
        subType: SubscriptionType.Shared,
        consumerId: target.consumerId,
        requestId: 2n,
      },
    }),
  ];
}

/** A valid frame of a random kind for `target`. */
export function baseFrame(random: SeededRandom, target: FuzzTarget): Uint8Array {
  const requestId = BigInt(10 + random.below(1_000_000));
  switch (random.below(8)) {
    case 0:
      return random.below(32) === 0 ? CONNECT_FRAME : encodeCommandFrame({ type: "PING", body: {} });
    case 1:
      return openingFrames(target)[0]!;
    case 2:
    case 3:
      return sendFrame(random, target);
    case 4:
      return encodeCommandFrame({
        type: "SUBSCRIBE",
        body: {
          topic: target.topic,
          subscription: "fuzz",
          subType: random.below(4),
          consumerId: target.consumerId + 1n,
          requestId,
        },
      });
    case 5:
    case 6:
      return encodeCommandFrame({
        type: "FLOW",
        body: { consumerId: target.consumerId, messagePermits: random.below(1_000) },
      });
    default:
      return encodeCommandFrame({
        type: "ACK",
        body: {
          consumerId: target.consumerId,
          ackType: random.pick([AckType.Individual, AckType.Cumulative]),
          messageId: [{ ledgerId: BigInt(random.below(4)), entryId: BigInt(random.below(100)) }],
          requestId,
        },
      });
  }
}

function sendFrame(random: SeededRandom, target: FuzzTarget): Uint8Array {
  const sequenceId = BigInt(random.below(1_000_000));
  const entry = encodeMessageEntry(
    { producerName: "fuzz", sequenceId, publishTime: 1_700_000_000_000n },
    random.bytes(1 + random.below(64)),
  );
  return encodePayloadFrame({ type: "SEND", body: { producerId: target.producerId, sequenceId } }, entry);
}

/** Mutations after which the frame usually still decodes: the broker answers them and reads on. */
export const SOFT_MUTATIONS = ["unchanged", "flip-entry-bytes", "bad-checksum"] as const;
/** Mutations that usually break the framing or the command: the broker closes the connection. */
export const HARD_MUTATIONS = [
  "flip-bytes",
  "truncate",
  "truncate-with-fixed-size",
  "oversized-total-size",
  "undersized-total-size",
  "wrong-command-size",
  "unknown-command-type",
  "garbage-body",
  "garbage-bytes",
] as const;
export type MutationName = (typeof SOFT_MUTATIONS)[number] | (typeof HARD_MUTATIONS)[number];

/** A mutated frame and the mutation applied. */
export interface MutatedFrame {
  readonly mutation: MutationName;
  readonly bytes: Uint8Array;
}

/** A frame of `target` mutated by a random mutation, a hard one with probability `hardRate`. */
export function mutateFrame(random: SeededRandom, target: FuzzTarget, hardRate: number): MutatedFrame {
  const mutation: MutationName = random.next() < hardRate ? random.pick(HARD_MUTATIONS) : random.pick(SOFT_MUTATIONS);
  const onSend = mutation === "flip-entry-bytes" || mutation === "bad-checksum";
  const base = onSend ? sendFrame(random, target) : baseFrame(random, target);
  return { mutation, bytes: applyMutation(mutation, random, base) };
}

function applyMutation(mutation: MutationName, random: SeededRandom, base: Uint8Array): Uint8Array {
  const frame = Uint8Array.from(base);
  const view = new DataView(frame.buffer);
  const commandEnd = 8 + view.getUint32(4);
  switch (mutation) {
    case "unchanged":
      return frame;
    case "flip-bytes":
      for (let count = 1 + random.below(4); count > 0; count -= 1) flipByte(frame, random.below(frame.length), random);
      return frame;
    case "flip-entry-bytes": {
      // The bytes after the magic and checksum: metadata size, metadata, payload.
      const from = commandEnd + 6;
      flipByte(frame, from + random.below(frame.length - from), random);
      return frame;
    }
    case "bad-checksum":
      view.setUint32(commandEnd + 2, view.getUint32(commandEnd + 2) ^ (1 + random.below(0xffff)));
      return frame;
    case "truncate":
      return frame.subarray(0, random.below(frame.length));
    case "truncate-with-fixed-size": {
      const cut = frame.subarray(0, 4 + random.below(frame.length - 4));
      new DataView(cut.buffer).setUint32(0, cut.length - 4);
      return cut;
    }
    case "oversized-total-size":
      view.setUint32(0, random.pick([0xffff_ffff, 0x8000_0000, 64 * 1024 * 1024, frame.length + random.below(4_096)]));
      return frame;
    case "undersized-total-size":
      view.setUint32(0, random.below(Math.max(1, frame.length - 4)));
      return frame;
    case "wrong-command-size":
      view.setUint32(
        4,
        random.pick([0, 0xffff_ffff, view.getUint32(4) + 1 + random.below(64), random.below(view.getUint32(4))]),
      );
      return frame;
    case "unknown-command-type":
      return unknownCommandFrame(random.pick([0, 1_000, 200 + random.below(50), 0x7fff_ffff]));
    case "garbage-body":
      return withSizes(random.bytes(random.below(256)));
    default:
      return random.bytes(1 + random.below(128));
  }
}

/** Changes the byte at `at` to a different value. */
function flipByte(frame: Uint8Array, at: number, random: SeededRandom): void {
  frame[at] = (frame[at] ?? 0) ^ (1 + random.below(255));
}

/** A frame whose BaseCommand holds only `type` (field 1, a varint). */
export function unknownCommandFrame(type: number): Uint8Array {
  const varint: number[] = [];
  let rest = type;
  do {
    varint.push((rest & 0x7f) | (rest > 0x7f ? 0x80 : 0));
    rest = Math.floor(rest / 128);
  } while (rest > 0);
  return withSizes(Uint8Array.from([0x08, ...varint]));
}

/** `command` behind correct totalSize and commandSize fields. */
function withSizes(command: Uint8Array): Uint8Array {
  const frame = new Uint8Array(8 + command.length);
  const view = new DataView(frame.buffer);
  view.setUint32(0, command.length + 4);
  view.setUint32(4, command.length);
  frame.set(command, 8);
  return frame;
}
