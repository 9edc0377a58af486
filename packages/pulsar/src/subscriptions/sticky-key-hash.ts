// The sticky-key hash of Key_Shared subscriptions: Murmur3 x86 32-bit (seed 0) of the key bytes, made non-negative
// (the sign bit cleared) as Pulsar brokers and clients compute it, then reduced to a slot in 0..65535. A message
// without an ordering key or partition key hashes the bytes of "NONE_KEY", as Pulsar's brokers do. Pure.

/** Number of hash slots of a Key_Shared subscription (slots are 0..65535). */
export const STICKY_KEY_HASH_RANGE = 65_536;

const NONE_KEY = new TextEncoder().encode("NONE_KEY");
const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** Murmur3 x86 32-bit of `bytes` with seed 0, as an unsigned 32-bit integer. */
export function murmur3x86_32(bytes: Uint8Array, seed = 0): number {
  let h1 = seed | 0;
  const whole = bytes.length - (bytes.length % 4);
  for (let index = 0; index < whole; index += 4) {
    const k1 = bytes[index]! | (bytes[index + 1]! << 8) | (bytes[index + 2]! << 16) | (bytes[index + 3]! << 24);
    h1 ^= mixK1(k1);
    h1 = Math.imul(rotateLeft(h1, 13), 5) + 0xe6546b64;
  }
  let tail = 0;
  for (let index = bytes.length - 1; index >= whole; index--) tail = (tail << 8) | bytes[index]!;
  h1 ^= mixK1(tail);
  h1 ^= bytes.length;
  return finalMix(h1) >>> 0;
}

/** The slot (0..65535) of a message's sticky key: its ordering key, else its partition key, else "NONE_KEY". */
export function stickyKeySlot(key: Uint8Array | undefined): number {
  const hash = murmur3x86_32(key ?? NONE_KEY) & 0x7fffffff;
  return hash % STICKY_KEY_HASH_RANGE;
}

function mixK1(k1: number): number {
  return Math.imul(rotateLeft(Math.imul(k1, C1), 15), C2);
}

function rotateLeft(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

function finalMix(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
