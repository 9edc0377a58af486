// The bound on how far one produced batch may inflate. Decompression runs on the produce path before anything is
// stored, so a small batch that inflates to gigabytes (a "zip bomb") must be refused before it exhausts memory;
// every inflater in this folder checks declared sizes first where its format has them and stops at the limit.
/** Default ceiling for one batch's inflated records: the largest entry the storage core accepts (64 MiB). */
export const DEFAULT_MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/** Thrown when a compressed payload would inflate past the caller's limit. */
export class InflateLimitError extends Error {
  override readonly name = "InflateLimitError";

  constructor(codec: string, limit: number, detail = "") {
    super(`${codec} payload inflates past the limit of ${String(limit)} bytes${detail === "" ? "" : ` (${detail})`}`);
  }
}

/** Thrown when a compressed payload is malformed. */
export class MalformedCompressionError extends Error {
  override readonly name = "MalformedCompressionError";
}
