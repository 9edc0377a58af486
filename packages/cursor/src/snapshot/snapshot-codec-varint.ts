// Unsigned LEB128 varints of the snapshot format: 7 bits per byte, least significant group first, the high bit set
// on every byte but the last. Only the shortest encoding of a value is valid (a last byte of 0 after another byte
// is rejected), and values are non-negative safe integers (at most 8 bytes), so every value has one encoding.
// Arithmetic avoids 32-bit bitwise operators above 2^31.

/** Largest number of bytes of a varint (8 × 7 = 56 bits hold every safe integer). */
const MAX_VARINT_BYTES = 8;
const TWO_POW_7 = 128;

/** Bytes of the varint of `value` (a non-negative safe integer). */
export function varintSize(value: number): number {
  let size = 1;
  let rest = value;
  while (rest >= TWO_POW_7) {
    rest = Math.floor(rest / TWO_POW_7);
    size += 1;
  }
  return size;
}

/** Writes the varint of `value` at `at`; returns the position after it. */
export function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  let position = at;
  let rest = value;
  while (rest >= TWO_POW_7) {
    bytes[position] = (rest % TWO_POW_7) | 0x80;
    rest = Math.floor(rest / TWO_POW_7);
    position += 1;
  }
  bytes[position] = rest;
  return position + 1;
}

/**
 * Reads varints from `bytes[position, limit)`. A malformed varint (truncated, over-long, non-minimal or above
 * 2^53-1) makes `next` return -1 and leaves `position` at its first byte.
 */
export class VarintReader {
  readonly #bytes: Uint8Array;
  readonly #limit: number;
  position: number;

  constructor(bytes: Uint8Array, position: number, limit: number) {
    this.#bytes = bytes;
    this.position = position;
    this.#limit = limit;
  }

  /** The next value, or -1 when the bytes at `position` are not a valid varint. */
  next(): number {
    const position = this.position;
    if (position < this.#limit) {
      const first = this.#bytes[position] ?? 0x80;
      if (first < 0x80) {
        this.position = position + 1;
        return first;
      }
    }
    return this.#nextMultiByte();
  }

  #nextMultiByte(): number {
    const start = this.position;
    const end = Math.min(this.#limit, start + MAX_VARINT_BYTES);
    let value = 0;
    let scale = 1;
    for (let position = start; position < end; position += 1) {
      const byte = this.#bytes[position] ?? 0;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        if (byte === 0 && position > start) return -1;
        if (!Number.isSafeInteger(value)) return -1;
        this.position = position + 1;
        return value;
      }
      scale *= TWO_POW_7;
    }
    return -1;
  }
}
