// Inflates the gzip records section of a Kafka batch (codec 1) with node:zlib, which stops with a RangeError at
// `maxOutputLength`: a payload inflating past the limit is refused without ever holding more than the limit.
// Concatenated gzip members are inflated as one stream, as Kafka's GZIPInputStream does.
import { gunzipSync } from "node:zlib";
import { InflateLimitError, MalformedCompressionError } from "./inflate-limit.js";

/** Inflates `data` (gzip), refusing output past `limit` bytes. The result is a new buffer. */
export function inflateGzip(data: Uint8Array, limit: number): Uint8Array {
  try {
    return gunzipSync(data, { maxOutputLength: Math.max(1, limit) });
  } catch (error) {
    if (error instanceof RangeError) throw new InflateLimitError("gzip", limit);
    throw new MalformedCompressionError(`gzip: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
