import { ErrorCode } from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore } from "@nereus/core/testing";
import { describe, expect, it } from "vitest";
import { type CursorStoreOptions, DEFAULT_CURSOR_LIMITS } from "./cursor-store-options.js";
import { resolveCursorEnvironment } from "./resolve-cursor-environment.js";

const streams = { getHead: () => Promise.reject(new Error("unused")), trim: () => Promise.reject(new Error("unused")) };
const options = (overrides: Partial<CursorStoreOptions> = {}): CursorStoreOptions => ({
  metadata: new InMemoryMetadataStore(),
  objects: new InMemoryObjectStore(),
  streams,
  cluster: "c1",
  ...overrides,
});

function invalidMessage(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    expect(error).toMatchObject({ code: ErrorCode.INVALID_ARGUMENT, retryable: false });
    return (error as Error).message;
  }
  throw new Error("expected INVALID_ARGUMENT");
}

describe("resolveCursorEnvironment", () => {
  it("fills in the default limits and clock", () => {
    const env = resolveCursorEnvironment(options());
    expect(env.limits).toEqual(DEFAULT_CURSOR_LIMITS);
    expect(env.now).toBe(Date.now);
    expect(env.cluster).toBe("c1");
  });

  it("overrides limits field by field", () => {
    const now = (): number => 5;
    const env = resolveCursorEnvironment(options({ limits: { maxCasAttempts: 3, minInlineItems: 1 }, now }));
    expect(env.limits).toEqual({ ...DEFAULT_CURSOR_LIMITS, maxCasAttempts: 3, minInlineItems: 1 });
    expect(env.now).toBe(now);
  });

  it("names the bad field", () => {
    expect(invalidMessage(() => resolveCursorEnvironment(options({ limits: { maxCasAttempts: 0 } })))).toContain(
      "limits.maxCasAttempts",
    );
    expect(invalidMessage(() => resolveCursorEnvironment(options({ limits: { maxAcksPerCas: 1.5 } })))).toContain(
      "limits.maxAcksPerCas",
    );
    expect(
      invalidMessage(() => resolveCursorEnvironment(options({ limits: { minInlineItems: 10, maxInlineItems: 5 } }))),
    ).toContain("minInlineItems");
    expect(
      invalidMessage(() => resolveCursorEnvironment(options({ limits: { maxAcks: 1 } as unknown as object }))),
    ).toContain("unknown cursor limit maxAcks");
    expect(invalidMessage(() => resolveCursorEnvironment(options({ cluster: "" })))).toContain("cluster");
    expect(
      invalidMessage(() => resolveCursorEnvironment(options({ metadata: {} as CursorStoreOptions["metadata"] }))),
    ).toContain("metadata");
    expect(
      invalidMessage(() => resolveCursorEnvironment(options({ objects: {} as CursorStoreOptions["objects"] }))),
    ).toContain("objects");
    expect(
      invalidMessage(() => resolveCursorEnvironment(options({ streams: {} as CursorStoreOptions["streams"] }))),
    ).toContain("streams");
    expect(invalidMessage(() => resolveCursorEnvironment(options({ now: 5 as unknown as () => number })))).toContain(
      "now",
    );
  });

  it("refuses a metadata store of another SPI version", () => {
    const metadata = Object.assign(new InMemoryMetadataStore(), { spiVersion: 2 });
    expect(
      invalidMessage(() =>
        resolveCursorEnvironment(options({ metadata: metadata as unknown as CursorStoreOptions["metadata"] })),
      ),
    ).toContain("SPI version 2");
  });
});
