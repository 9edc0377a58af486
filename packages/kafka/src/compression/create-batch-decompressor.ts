// The decompressor the produce path hands to the sans-IO record validator: one function over every codec Kafka
// defines (gzip, snappy, lz4, zstd), each bounded by the same output limit. It throws on garbage, on payloads
// that would inflate past the limit and on unknown codecs; the validator turns any throw into a rejection.
import type { Decompressor } from "../protocol/records/decode-record-batch.js";
import { CompressionCodec } from "../protocol/records/record-batch-header.js";
import { inflateGzip } from "./inflate-gzip.js";
import { DEFAULT_MAX_INFLATED_BYTES, MalformedCompressionError } from "./inflate-limit.js";
import { inflateLz4Frame } from "./inflate-lz4-frame.js";
import { inflateSnappy } from "./inflate-snappy.js";
import { inflateZstd } from "./inflate-zstd.js";

/** Options of {@link createBatchDecompressor}. */
export interface BatchDecompressorOptions {
  /** Largest inflated records section accepted, in bytes (default {@link DEFAULT_MAX_INFLATED_BYTES}). */
  readonly maxInflatedBytes?: number;
}

/** A {@link Decompressor} for every Kafka codec, refusing output past `maxInflatedBytes`. */
export function createBatchDecompressor(options: BatchDecompressorOptions = {}): Decompressor {
  const limit = options.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES;
  return (compression, data) => {
    switch (compression) {
      case CompressionCodec.gzip:
        return inflateGzip(data, limit);
      case CompressionCodec.snappy:
        return inflateSnappy(data, limit);
      case CompressionCodec.lz4:
        return inflateLz4Frame(data, limit);
      case CompressionCodec.zstd:
        return inflateZstd(data, limit);
      default:
        throw new MalformedCompressionError(`unknown compression codec ${String(compression)}`);
    }
  };
}
