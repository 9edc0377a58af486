// The cursor conformance suite: every scenario a cursor store must pass on a metadata/object store pair — the
// lifecycle, acks and group commit, the epoch rule, snapshots and their corruption, the retention invariant,
// fencing and restarts, and a lost response or a crash at every durable step of every operation.
import { describe } from "vitest";
import type { OpenCursorConformanceFixture } from "./cursor-conformance-fixture.js";
import { describeAckScenarios } from "./conformance-acks.js";
import { describeFaultScenarios } from "./conformance-faults.js";
import { describeLifecycleScenarios } from "./conformance-lifecycle.js";
import { describeOwnershipScenarios } from "./conformance-ownership.js";
import { describeRetentionScenarios } from "./conformance-retention.js";
import { describeSnapshotScenarios } from "./conformance-snapshots.js";

/**
 * Registers the cursor conformance suite as `describe(name)`. `openFixture` is called once per test and must hand
 * out an isolated data set (see CursorConformanceFixture); the suite cleans it up.
 */
export function describeCursorConformance(name: string, openFixture: OpenCursorConformanceFixture): void {
  describe(`cursor conformance: ${name}`, () => {
    describeLifecycleScenarios(openFixture);
    describeAckScenarios(openFixture);
    describeSnapshotScenarios(openFixture);
    describeRetentionScenarios(openFixture);
    describeOwnershipScenarios(openFixture);
    describeFaultScenarios(openFixture);
  });
}
