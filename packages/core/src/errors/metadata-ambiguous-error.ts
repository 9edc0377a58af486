// The error a MetadataStore raises when a write's response was lost: it may or may not have applied.
import { ErrorCode } from "./error-code.js";
import { NereusError } from "./nereus-error.js";

/** A metadata write whose outcome is unknown. Resolve by reloading the keys it touched; never by guessing. */
export class MetadataAmbiguousError extends NereusError {
  readonly ambiguous = true;

  constructor(message: string, cause?: unknown) {
    super(ErrorCode.METADATA_UNAVAILABLE, message, { retryable: true, cause, details: { ambiguous: true } });
    this.name = "MetadataAmbiguousError";
  }

  static isAmbiguous(value: unknown): value is MetadataAmbiguousError {
    return NereusError.is(value) && (value as { details: Record<string, unknown> }).details["ambiguous"] === true;
  }
}
