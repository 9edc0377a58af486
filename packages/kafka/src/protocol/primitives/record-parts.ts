// Record data handed to a response encoder as consecutive parts (the stored batches of a Fetch), so that the encoder
// writes them back to back under one length prefix instead of the caller joining them into one copy first. Only
// encoders take parts; decoders always return one Uint8Array view.
import { invalidArgument } from "./invalid-argument.js";
import { joinBytes } from "./join-bytes.js";

/**
 * Consecutive byte parts of one RECORDS field. Invariant: `length` is the sum of the parts' lengths (fixed at
 * construction; the parts are not copied, so they must not change until the response is written).
 */
export class RecordParts {
  readonly parts: readonly Uint8Array[];
  readonly length: number;

  constructor(parts: readonly Uint8Array[]) {
    let length = 0;
    for (const part of parts) {
      if (!(part instanceof Uint8Array)) throw invalidArgument("records", part, "a record part is not a Uint8Array");
      length += part.length;
    }
    this.parts = parts;
    this.length = length;
  }

  /** The parts joined into one array (tests, and callers that need one buffer); one part is returned as it is. */
  join(): Uint8Array {
    return joinBytes(this.parts, this.length);
  }
}

/** The bytes of a RECORDS value as one array (joins parts). */
export function recordBytes(value: Uint8Array | RecordParts): Uint8Array {
  return value instanceof RecordParts ? value.join() : value;
}
