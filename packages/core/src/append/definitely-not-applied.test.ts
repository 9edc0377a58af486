import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { MetadataAmbiguousError } from "../errors/metadata-ambiguous-error.js";
import { NereusError } from "../errors/nereus-error.js";
import { definitelyNotApplied } from "./definitely-not-applied.js";

describe("definitelyNotApplied", () => {
  it("trusts only an explicit not-applied signal or request validation", () => {
    expect(
      definitelyNotApplied(new NereusError(ErrorCode.METADATA_UNAVAILABLE, "down", { details: { ambiguous: false } })),
    ).toBe(true);
    expect(definitelyNotApplied(new NereusError(ErrorCode.INVALID_ARGUMENT, "bad"))).toBe(true);
    expect(definitelyNotApplied(new NereusError(ErrorCode.METADATA_LIMIT_EXCEEDED, "big"))).toBe(true);
  });

  it("treats response loss, in-flight cancellation and unknown errors as possibly applied", () => {
    expect(definitelyNotApplied(new MetadataAmbiguousError("lost"))).toBe(false);
    expect(definitelyNotApplied(new NereusError(ErrorCode.CANCELLED, "aborted"))).toBe(false);
    expect(definitelyNotApplied(new NereusError(ErrorCode.METADATA_UNAVAILABLE, "unknown"))).toBe(false);
    expect(definitelyNotApplied(new Error("boom"))).toBe(false);
  });
});
