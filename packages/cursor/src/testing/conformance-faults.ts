// Fault scenarios: every operation of FAULT_CASES is run once cleanly (recording its durable steps and the state
// before and after it), then once per durable step and fault on a fresh stream — the step's response lost, or the
// process crashed just before or just after the step. A lost response must still end in the state after; a
// crash, once the next process opened the stream, in exactly the state its commit step predicts. The retention
// record must be ACTIVE again and the retention invariant must hold in every outcome.
import { describe, expect } from "vitest";
import type { OpenCursorConformanceFixture } from "./cursor-conformance-fixture.js";
import type { ConformanceRun } from "./conformance-run.js";
import { conformanceTest } from "./conformance-test.js";
import { FAULT_CASES, FAULT_CASE_ENTRIES, type FaultCase, type FaultCaseContext } from "./fault-cases.js";
import { type DurableStep, SimulatedProcess, type StepFault } from "./simulated-process.js";
import type { StreamSummary } from "./stream-summary.js";

/** A case prepared on a fresh stream in a fresh simulated process, its step count started. */
interface PreparedCase {
  readonly context: FaultCaseContext;
  readonly process: SimulatedProcess;
}

async function prepareCase(run: ConformanceRun, faultCase: FaultCase, label: string): Promise<PreparedCase> {
  const streamId = await run.newStream(label, FAULT_CASE_ENTRIES);
  const process = new SimulatedProcess(run.fixture);
  const store = run.store(faultCase.limits, process);
  const cursors = await store.openStream(streamId);
  await cursors.createCursor("sub", { initialOffset: 0 });
  const context = { store, cursors, streamId };
  await faultCase.setup?.(context);
  process.countFromHere();
  return { context, process };
}

/** The state a new process finds when it opens `streamId` (checking the retention record is ACTIVE again). */
async function stateAfterReopen(run: ConformanceRun, faultCase: FaultCase, streamId: string): Promise<StreamSummary> {
  const cursors = await run.open(streamId, faultCase.limits, new SimulatedProcess(run.fixture));
  await run.expectInvariant(streamId);
  const summary = await run.summary(cursors);
  expect(summary.retention.lifecycle).toBe("ACTIVE");
  await cursors.close();
  return summary;
}

/** A clean run: the durable steps of the operation, and the states before and after it. */
async function probe(
  run: ConformanceRun,
  faultCase: FaultCase,
): Promise<{ steps: readonly DurableStep[]; before: StreamSummary; after: StreamSummary }> {
  const { context, process } = await prepareCase(run, faultCase, "probe");
  const before = await run.summary(context.cursors);
  await faultCase.run(context);
  const steps = [...process.steps];
  expect(steps, `${faultCase.name}: durable steps`).toEqual(faultCase.steps);
  const after = await stateAfterReopen(run, faultCase, context.streamId);
  return { steps, before, after };
}

/** The faults tried at a step: a lost response only where there is one to lose (a metadata transaction). */
function faultsAt(step: DurableStep): readonly StepFault[] {
  return step === "metadata txn" ? ["lose-response", "crash-before", "crash-after"] : ["crash-before", "crash-after"];
}

async function trial(
  run: ConformanceRun,
  faultCase: FaultCase,
  at: number,
  fault: StepFault,
  expected: { readonly before: StreamSummary; readonly after: StreamSummary; readonly commitStep: number },
): Promise<void> {
  const what = `${faultCase.name}: ${fault} at step ${String(at)}`;
  const { context, process } = await prepareCase(run, faultCase, "trial");
  process.arm(at, fault);
  const outcome = await faultCase.run(context).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (fault === "lose-response") {
    expect(outcome, `${what}: the operation resolves`).toBeUndefined();
    expect(await run.summary(context.cursors), `${what}: live state`).toEqual(expected.after);
    expect(await stateAfterReopen(run, faultCase, context.streamId), `${what}: stored state`).toEqual(expected.after);
    return;
  }
  expect(process.crashed, `${what}: the process crashed`).toBe(true);
  const applied = fault === "crash-before" ? at - 1 : at;
  const state = applied >= expected.commitStep ? expected.after : expected.before;
  expect(await stateAfterReopen(run, faultCase, context.streamId), `${what}: state after reopen`).toEqual(state);
}

export function describeFaultScenarios(open: OpenCursorConformanceFixture): void {
  describe("a lost response or a crash at every durable step", () => {
    for (const faultCase of FAULT_CASES) {
      conformanceTest(
        open,
        faultCase.name,
        async (run) => {
          const { steps, before, after } = await probe(run, faultCase);
          const commitStep = faultCase.commitsAt === "first" ? 1 : steps.length;
          for (let at = 1; at <= steps.length; at++) {
            const step = steps[at - 1] as DurableStep;
            for (const fault of faultsAt(step)) await trial(run, faultCase, at, fault, { before, after, commitStep });
          }
        },
        120_000,
      );
    }
  });
}
