import { describe, expect, it } from "vitest";
import { AppendAttempt } from "./append-attempt.js";
import { Deadline } from "../timing/deadline.js";
import type { ExecutionPlan } from "../profiles/resolve-execution-plan.js";
import { AppendFailedError } from "../errors/append-outcome.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { LaneOperation } from "./lane-operation.js";
import { PendingAppend } from "./pending-append.js";
import { StreamLane } from "./stream-lane.js";

const plan = { profile: "BOOKKEEPER_WAL_ONLY", ackBoundary: "STABLE_HEAD", walWriter: {} } as unknown as ExecutionPlan;
const pending = (name: string, timeoutMs = 10_000) =>
  Object.assign(
    new PendingAppend(
      {
        payloadFormat: "OPAQUE_RECORD_BATCH",
        entries: [{ payload: new TextEncoder().encode(name), recordCount: 1 }],
        recordCount: 1,
        entryCount: 1,
        logicalBytes: name.length,
        handedOver: false,
      },
      plan,
      undefined,
      Deadline.start(timeoutMs),
    ),
    { label: name },
  );

/** A lane whose group runner records what ran and completes each group when told to. */
function recordingLane(groupCommit = false) {
  const ran: string[][] = [];
  const releases: Array<() => void> = [];
  const lane = new StreamLane(
    "s-lane",
    async (_lane, members) => {
      ran.push(members.map((member) => (member as PendingAppend & { label: string }).label));
      await new Promise<void>((resolve) => releases.push(resolve));
      for (const member of members) member.resolve({ startOffset: 0 } as never);
    },
    groupCommit ? { maxBytes: 1_000, maxEntries: 1_000 } : undefined,
  );
  const releaseNext = async (): Promise<void> => {
    while (releases.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    releases.shift()?.();
  };
  return { lane, ran, releaseNext };
}

describe("StreamLane", () => {
  it("runs appends and operations one at a time in FIFO order", async () => {
    const { lane, ran, releaseNext } = recordingLane();
    const a = pending("a");
    const b = pending("b");
    const operation = new LaneOperation(Deadline.start(10_000), async () => {
      ran.push(["op"]);
    });
    lane.enqueue(a);
    lane.enqueue(operation);
    lane.enqueue(b);
    await releaseNext();
    await Promise.all([a.promise, operation.promise]);
    expect(ran).toEqual([["a"], ["op"], ["b"]]);
    await releaseNext();
    await b.promise;
    await lane.settled();
    expect(lane.idle).toBe(true);
  });

  it("merges appends queued behind a running one when group commit is on", async () => {
    const { lane, ran, releaseNext } = recordingLane(true);
    const items = ["a", "b", "c", "d"].map((name) => pending(name));
    for (const item of items) lane.enqueue(item);
    await releaseNext();
    await releaseNext();
    await Promise.all(items.map((item) => item.promise));
    expect(ran).toEqual([["a"], ["b", "c", "d"]]);
  });

  it("while suspended nothing starts; queued appends fail KNOWN_NOT_COMMITTED at their deadline; resume continues", async () => {
    const { lane, ran, releaseNext } = recordingLane();
    const attempt = new AppendAttempt("s-lane", plan, []);
    lane.suspend(attempt);
    const waiting = pending("b", 20);
    const survivor = pending("c");
    lane.enqueue(waiting);
    lane.enqueue(survivor);
    const failure = await waiting.promise.catch((error: unknown) => error);
    expect(AppendFailedError.isAppendFailure(failure) && failure.outcome).toBe("KNOWN_NOT_COMMITTED");
    expect(NereusError.hasCode(failure, ErrorCode.TIMEOUT)).toBe(true);
    expect(ran).toEqual([]);
    lane.resume(new AppendAttempt("s-lane", plan, []));
    expect(lane.suspendedBy).toBe(attempt);
    lane.resume(attempt);
    await releaseNext();
    await survivor.promise;
    expect(ran).toEqual([["c"]]);
  });

  it("failQueued fails every waiting item with the given error", async () => {
    const { lane } = recordingLane();
    lane.suspend(new AppendAttempt("s-lane", plan, []));
    const item = pending("x");
    const operation = new LaneOperation(Deadline.start(10_000), async () => "never");
    lane.enqueue(item);
    lane.enqueue(operation);
    lane.failQueued(new NereusError(ErrorCode.STORAGE_CLOSED, "closed"));
    await expect(item.promise).rejects.toSatisfy((error: unknown) =>
      NereusError.hasCode(error, ErrorCode.STORAGE_CLOSED),
    );
    await expect(operation.promise).rejects.toSatisfy((error: unknown) =>
      NereusError.hasCode(error, ErrorCode.STORAGE_CLOSED),
    );
    expect(lane.queued).toBe(0);
  });
});
