// How every conformance scenario is registered: one vitest test per scenario, on a fixture of its own, with the
// test's working set closed (and the fixture cleaned up) whatever the outcome.
import { it } from "vitest";
import type { OpenCursorConformanceFixture } from "./cursor-conformance-fixture.js";
import { ConformanceRun } from "./conformance-run.js";

/** A scenario body: runs against a fresh working set. */
type ConformanceScenario = (run: ConformanceRun) => Promise<void>;

/** Registers scenario `name` on fixtures from `open`. */
export function conformanceTest(
  open: OpenCursorConformanceFixture,
  name: string,
  scenario: ConformanceScenario,
  timeoutMs?: number,
): void {
  it(
    name,
    async () => {
      const run = new ConformanceRun(await open());
      try {
        await scenario(run);
      } finally {
        await run.close();
      }
    },
    timeoutMs,
  );
}
