// A cheap lower bound of a message's encoded size: the total length of its byte fields (records, bytes) plus a
// fixed allowance. Encoders start their ByteWriter at this capacity so that a Fetch response carrying megabytes of
// records is not re-copied at every doubling of the buffer.

const ALLOWANCE = 512;

function byteFieldTotal(value: unknown, depth: number, below: number): number {
  if (value instanceof Uint8Array) return value.length < below ? value.length : 0;
  if (depth > 8 || typeof value !== "object" || value === null) return 0;
  let total = 0;
  if (Array.isArray(value)) {
    for (const item of value) total += byteFieldTotal(item, depth + 1, below);
    return total;
  }
  for (const key in value) total += byteFieldTotal((value as Record<string, unknown>)[key], depth + 1, below);
  return total;
}

/** Initial writer capacity for encoding `body`; byte fields of `sharedFrom` bytes or more are not counted (shared). */
export function payloadSizeHint(body: unknown, sharedFrom = Number.POSITIVE_INFINITY): number {
  return ALLOWANCE + byteFieldTotal(body, 0, sharedFrom);
}
