// The one error of the snapshot codec: METADATA_INVARIANT_VIOLATION naming the snapshot (its object key when the
// caller knows it, else its id) and the field that is wrong. Never retryable: the bytes will not change.
import { ErrorCode, NereusError } from "@nereus/core";

/** Builds the codec's errors for one snapshot. */
export class SnapshotErrors {
  readonly #subject: string;
  readonly #snapshotId: string;

  /** `objectKey` is optional; `action` is "encode" or "decode". */
  constructor(snapshotId: string, objectKey: string | undefined, action: "encode" | "decode") {
    this.#snapshotId = snapshotId;
    this.#subject = `cursor snapshot ${objectKey ?? snapshotId} (${action})`;
  }

  fail(field: string, reason: string, cause?: unknown): NereusError {
    return new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, `${this.#subject}: ${field}: ${reason}`, {
      retryable: false,
      cause,
      details: { snapshotId: this.#snapshotId, field },
    });
  }

  /** Fails with `reason` unless `condition` holds. */
  require(condition: boolean, field: string, reason: string): void {
    if (!condition) throw this.fail(field, reason);
  }
}
