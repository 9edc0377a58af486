import { describe, expect, it } from "vitest";
import type { AppendSession, StreamHead } from "../domain/stream-head.js";
import { streamHeadFixture } from "../testing/stream-head-fixture.js";
import { classifyHeadConflict } from "./classify-head-conflict.js";

const ours: AppendSession = { writerId: "a", epoch: 2, fencingToken: "t", leaseVersion: 1, expiresAtMillis: 5_000 };
const expected: StreamHead = streamHeadFixture({
  profile: "BOOKKEEPER_WAL_ONLY",
  committedEndOffset: 10,
  cumulativeSize: 100,
  commitVersion: 3,
  lastCommitId: "c3",
  session: ours,
});
const classify = (
  current: StreamHead | undefined,
  extra: { markerFound?: boolean; held?: AppendSession | undefined } = {},
) =>
  classifyHeadConflict({
    expected,
    current,
    commitId: "mine",
    markerFound: extra.markerFound ?? false,
    heldSession: "held" in extra ? extra.held : ours,
  });

describe("classifyHeadConflict", () => {
  it("our own commit wins over every other difference", () => {
    expect(classify({ ...expected, state: "SEALED", session: undefined }, { markerFound: true }).kind).toBe(
      "committed",
    );
    expect(classify({ ...expected, lastCommitId: "mine", committedEndOffset: 12 }).kind).toBe("committed");
  });

  it("a changed epoch or token is FENCED_APPEND, even when the end also moved", () => {
    const verdict = classify({
      ...expected,
      committedEndOffset: 20,
      session: { ...ours, epoch: 3, fencingToken: "u" },
    });
    expect(verdict).toMatchObject({ kind: "fail", code: "FENCED_APPEND" });
  });

  it("a state change is STREAM_NOT_ACTIVE", () => {
    expect(classify({ ...expected, state: "SEALED" })).toMatchObject({ kind: "fail", code: "STREAM_NOT_ACTIVE" });
  });

  it("renewal and trim are compatible changes (retry)", () => {
    expect(classify({ ...expected, trimOffset: 5 }).kind).toBe("retry");
    expect(classify({ ...expected, session: { ...ours, leaseVersion: 2, expiresAtMillis: 9_000 } }).kind).toBe("retry");
  });

  it("a moved end with our session intact needs the chain check (then OFFSET_CONFLICT)", () => {
    expect(
      classify({ ...expected, committedEndOffset: 11, commitVersion: 4, lastCommitId: "c4", cumulativeSize: 101 }).kind,
    ).toBe("end-moved");
  });

  it("while acquiring (no held session) any session change fences; an unchanged one is compatible", () => {
    expect(classify({ ...expected, trimOffset: 1 }, { held: undefined }).kind).toBe("retry");
    expect(classify({ ...expected, session: { ...ours, expiresAtMillis: 6_000 } }, { held: undefined })).toMatchObject({
      kind: "fail",
      code: "FENCED_APPEND",
    });
  });

  it("a vanished head is STREAM_NOT_FOUND", () => {
    expect(classify(undefined)).toMatchObject({ kind: "fail", code: "STREAM_NOT_FOUND" });
  });
});
