import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AppendSession, StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { streamHeadFixture } from "../testing/stream-head-fixture.js";
import { planSession, type SessionPolicy } from "./plan-session.js";

const policy: SessionPolicy = { ttlMs: 1_000, renewBeforeMs: 300, stealExpired: true };
const now = 10_000;
const session = (overrides: Partial<AppendSession> = {}): AppendSession => ({
  writerId: "a",
  epoch: 3,
  fencingToken: "token-a",
  leaseVersion: 4,
  expiresAtMillis: now + 800,
  ...overrides,
});
const head = (current: AppendSession | undefined): StreamHead =>
  streamHeadFixture({ profile: "BOOKKEEPER_WAL_ONLY", session: current });
const plan = (
  current: AppendSession | undefined,
  held: AppendSession | undefined,
  writerId = "a",
  extra: Partial<SessionPolicy> = {},
  preempt = false,
) =>
  planSession({
    head: head(current),
    writerId,
    held,
    nowMillis: now,
    policy: { ...policy, ...extra },
    preempt,
    newToken: () => "fresh",
  });
const code = (action: () => unknown): string | undefined => {
  try {
    action();
  } catch (error) {
    return NereusError.is(error) ? error.code : "not-nereus";
  }
  return undefined;
};

describe("planSession", () => {
  it("keeps a held session with enough lease left (no head change)", () => {
    const current = session();
    expect(plan(current, current)).toEqual({ kind: "keep", session: current, next: current, changed: false });
  });

  it("renews a held session with little lease left: same epoch and token, lease version + 1, new expiry", () => {
    const current = session({ expiresAtMillis: now + 100 });
    const result = plan(current, current);
    expect(result.kind).toBe("renew");
    expect(result.session).toEqual(current);
    expect(result.next).toEqual({ ...current, leaseVersion: 5, expiresAtMillis: now + 1_000 });
  });

  it("re-acquires an expired held session with a higher epoch", () => {
    const current = session({ expiresAtMillis: now - 1 });
    expect(plan(current, current).next).toMatchObject({ epoch: 4, fencingToken: "fresh", writerId: "a" });
  });

  it("fences a holder whose session was replaced", () => {
    expect(code(() => plan(session({ epoch: 4, fencingToken: "other" }), session()))).toBe(ErrorCode.FENCED_APPEND);
    expect(code(() => plan(undefined, session()))).toBe(ErrorCode.FENCED_APPEND);
  });

  it("acquires epoch 1 on a stream without a session, and epoch + 1 over a previous run of the same writer id", () => {
    expect(plan(undefined, undefined).next).toMatchObject({
      epoch: 1,
      writerId: "a",
      fencingToken: "fresh",
      expiresAtMillis: now + 1_000,
    });
    expect(plan(session(), undefined).next).toMatchObject({ epoch: 4, fencingToken: "fresh" });
  });

  it("another writer's live session fences; an expired one is stolen (or refused when stealing is off); preempt always wins", () => {
    const other = session({ writerId: "b" });
    expect(code(() => plan(other, undefined))).toBe(ErrorCode.FENCED_APPEND);
    const expired = session({ writerId: "b", expiresAtMillis: now });
    expect(plan(expired, undefined).next).toMatchObject({ epoch: 4, writerId: "a" });
    expect(code(() => plan(expired, undefined, "a", { stealExpired: false }))).toBe(ErrorCode.APPEND_SESSION_EXPIRED);
    expect(plan(other, undefined, "a", {}, true).next).toMatchObject({ epoch: 4, writerId: "a" });
  });

  it("never lowers the epoch and only changes the token with a new epoch (property)", () => {
    fc.assert(
      fc.property(
        fc.option(
          fc.record({
            writerId: fc.constantFrom("a", "b"),
            epoch: fc.integer({ min: 1, max: 1e6 }),
            expiresOffset: fc.integer({ min: -2_000, max: 2_000 }),
          }),
          { nil: undefined },
        ),
        fc.boolean(),
        fc.boolean(),
        (shape, holds, preempt) => {
          const current =
            shape === undefined
              ? undefined
              : session({
                  writerId: shape.writerId,
                  epoch: shape.epoch,
                  fencingToken: `t-${shape.writerId}`,
                  expiresAtMillis: now + shape.expiresOffset,
                });
          const held = holds && current?.writerId === "a" ? current : undefined;
          let result;
          try {
            result = plan(current, held, "a", {}, preempt);
          } catch (error) {
            expect(NereusError.is(error)).toBe(true);
            return;
          }
          expect(result.next.epoch).toBeGreaterThanOrEqual(current?.epoch ?? 1);
          expect(result.next.writerId).toBe("a");
          if (result.next.fencingToken !== current?.fencingToken)
            expect(result.next.epoch).toBe((current?.epoch ?? 0) + 1);
          expect(result.next.expiresAtMillis).toBeGreaterThan(now);
        },
      ),
    );
  });
});
