// The model-based history property: random cursor histories (see cursor-history-commands) run against a fixture
// and a plain model, checked after every command (see cursor-history-run). `checkCursorHistories` runs any number
// of histories without a test framework (the benchmark runs 10,000); `describeCursorHistoryProperty` registers a
// vitest test that runs a few hundred.
import fc from "fast-check";
import { describe, it } from "vitest";
import type { CursorConformanceFixture, OpenCursorConformanceFixture } from "./cursor-conformance-fixture.js";
import { historyArbitrary } from "./cursor-history-commands.js";
import { HistoryStats, runCursorHistory } from "./cursor-history-run.js";

export interface CursorHistoryOptions {
  /** Histories to generate (default 200). */
  readonly runs?: number;
  /** Commands per history, at most (default 30). */
  readonly maxCommands?: number;
  /** fast-check seed (default random; a failure reports the seed and the shrunk history). */
  readonly seed?: number;
}

/**
 * Runs `options.runs` random histories on `fixture` (one fresh stream each) and resolves what they did. Rejects
 * with fast-check's report (seed, shrunk history, first disagreement) when a history disagrees with the model.
 */
export async function checkCursorHistories(
  fixture: CursorConformanceFixture,
  options: CursorHistoryOptions = {},
): Promise<HistoryStats> {
  const stats = new HistoryStats();
  await fc.assert(
    fc.asyncProperty(historyArbitrary(options.maxCommands ?? 30), (commands) =>
      runCursorHistory(fixture, commands, stats),
    ),
    { numRuns: options.runs ?? 200, seed: options.seed },
  );
  return stats;
}

/** Registers the history property as one vitest test on a fixture from `openFixture`. */
export function describeCursorHistoryProperty(
  name: string,
  openFixture: OpenCursorConformanceFixture,
  options: CursorHistoryOptions & { readonly timeoutMs?: number } = {},
): void {
  describe(`cursor history property: ${name}`, () => {
    it(
      `agrees with the model after every step of ${String(options.runs ?? 200)} random histories`,
      async () => {
        const fixture = await openFixture();
        try {
          await checkCursorHistories(fixture, options);
        } finally {
          await fixture.cleanup();
        }
      },
      options.timeoutMs ?? 120_000,
    );
  });
}
