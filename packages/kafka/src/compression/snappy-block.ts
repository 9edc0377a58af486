// Decodes one raw snappy block (a varint preamble with the inflated length, then literal and copy elements),
// checking every element against both the input and the declared length: literals must lie inside the block,
// copies must point at bytes already written, nothing may be written past the declared length and the block must
// fill it exactly. The declared length is checked against the caller's budget before the output is allocated.
// (snappyjs, used by the tests to compress, does not check copy offsets or output overruns on decode.)
import { InflateLimitError, MalformedCompressionError } from "./inflate-limit.js";

function fail(message: string): never {
  throw new MalformedCompressionError(`snappy: ${message}`);
}

/** Inflates the raw snappy `block`; refuses a declared length over `budget` (reported against `limit`). */
export function decodeSnappyBlock(block: Uint8Array, budget: number, limit: number): Uint8Array {
  let input = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (shift > 28 || input >= block.length) fail("the block's length preamble is malformed");
    const byte = block[input++] ?? 0;
    length += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) break;
  }
  if (length > budget) throw new InflateLimitError("snappy", limit, `a block declares ${String(length)} bytes`);
  const output = new Uint8Array(length);
  let written = 0;
  while (input < block.length) {
    const tag = block[input++] ?? 0;
    const type = tag & 0x03;
    if (type === 0) {
      let literals = tag >>> 2;
      if (literals >= 60) {
        const extra = literals - 59;
        if (block.length - input < extra) fail("a literal length runs past the end of the block");
        literals = 0;
        for (let index = extra - 1; index >= 0; index -= 1) literals = literals * 256 + (block[input + index] ?? 0);
        input += extra;
      }
      literals += 1;
      if (literals > block.length - input) fail(`a literal of ${String(literals)} bytes overruns the block`);
      if (literals > length - written) fail("the block inflates past its declared length");
      output.set(block.subarray(input, input + literals), written);
      input += literals;
      written += literals;
      continue;
    }
    let copyLength: number;
    let offset: number;
    if (type === 1) {
      if (input >= block.length) fail("the block ends inside a copy");
      copyLength = ((tag >>> 2) & 0x07) + 4;
      offset = ((tag >>> 5) << 8) | (block[input++] ?? 0);
    } else if (type === 2) {
      if (block.length - input < 2) fail("the block ends inside a copy");
      copyLength = (tag >>> 2) + 1;
      offset = (block[input] ?? 0) | ((block[input + 1] ?? 0) << 8);
      input += 2;
    } else {
      if (block.length - input < 4) fail("the block ends inside a copy");
      copyLength = (tag >>> 2) + 1;
      offset =
        ((block[input] ?? 0) |
          ((block[input + 1] ?? 0) << 8) |
          ((block[input + 2] ?? 0) << 16) |
          ((block[input + 3] ?? 0) << 24)) >>>
        0;
      input += 4;
    }
    if (offset === 0 || offset > written) fail(`copy offset ${String(offset)} points before the start of the output`);
    if (copyLength > length - written) fail("the block inflates past its declared length");
    if (offset >= copyLength) {
      output.copyWithin(written, written - offset, written - offset + copyLength);
    } else {
      for (let index = 0; index < copyLength; index += 1)
        output[written + index] = output[written - offset + index] ?? 0;
    }
    written += copyLength;
  }
  if (written !== length) fail(`the block declares ${String(length)} bytes but holds ${String(written)}`);
  return output;
}
