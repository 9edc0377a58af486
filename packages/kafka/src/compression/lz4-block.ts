// Decodes one LZ4 block (the sequence format inside an LZ4 frame) into a caller-owned buffer, checking every
// read and write: literal runs and match lengths must stay inside the block and the output window, match offsets
// must point at bytes already written (within the window the frame allows). Hostile input fails with
// MalformedCompressionError; it can never read or write outside the given ranges. Allocates nothing.
import { MalformedCompressionError } from "./inflate-limit.js";

const MIN_MATCH = 4;

function fail(message: string): never {
  throw new MalformedCompressionError(`lz4: ${message}`);
}

/**
 * Decodes `source[sourceStart, sourceEnd)` into `target` from `targetStart`, writing no further than
 * `targetLimit`; matches may reach back to `windowStart` (the block's start for independent blocks, earlier
 * output for linked ones). Returns the position after the last byte written.
 */
export function decodeLz4Block(
  source: Uint8Array,
  sourceStart: number,
  sourceEnd: number,
  target: Uint8Array,
  targetStart: number,
  targetLimit: number,
  windowStart: number,
): number {
  let input = sourceStart;
  let output = targetStart;
  if (input >= sourceEnd) fail("empty compressed block");
  for (;;) {
    if (input >= sourceEnd) fail("the block ends inside a sequence");
    const token = source[input++] ?? 0;
    let literals = token >>> 4;
    if (literals === 15) {
      let byte = 255;
      while (byte === 255) {
        if (input >= sourceEnd) fail("a literal length runs past the end of the block");
        byte = source[input++] ?? 0;
        literals += byte;
      }
    }
    if (literals > sourceEnd - input) fail(`a literal run of ${String(literals)} bytes overruns the block`);
    if (literals > targetLimit - output) fail("the block inflates past its declared maximum size");
    if (literals < 32) {
      for (let index = 0; index < literals; index += 1) target[output + index] = source[input + index] ?? 0;
    } else {
      target.set(source.subarray(input, input + literals), output);
    }
    input += literals;
    output += literals;
    if (input === sourceEnd) return output;
    if (sourceEnd - input < 2) fail("the block ends inside a match offset");
    const offset = (source[input] ?? 0) | ((source[input + 1] ?? 0) << 8);
    input += 2;
    if (offset === 0 || offset > output - windowStart)
      fail(`match offset ${String(offset)} points before the start of the output`);
    let matchLength = token & 0x0f;
    if (matchLength === 15) {
      let byte = 255;
      while (byte === 255) {
        if (input >= sourceEnd) fail("a match length runs past the end of the block");
        byte = source[input++] ?? 0;
        matchLength += byte;
      }
    }
    matchLength += MIN_MATCH;
    if (matchLength > targetLimit - output) fail("the block inflates past its declared maximum size");
    if (offset >= matchLength) {
      target.copyWithin(output, output - offset, output - offset + matchLength);
    } else {
      for (let index = 0; index < matchLength; index += 1)
        target[output + index] = target[output - offset + index] ?? 0;
    }
    output += matchLength;
  }
}
