// Shared vitest preset: resolves workspace packages to their TypeScript sources (the `@nereus/source`
// export condition) so tests never wait for a build, keeps unit tests beside the code and integration tests
// under test/*.integration.test.ts, and writes a JSON report that `npm test` sums into its closing line.
// Plain JavaScript on purpose: vitest loads config dependencies through Node, which cannot run .ts on Node 20.
import { defineConfig } from "vitest/config";
import path from "node:path";

/** @param {import("./vitest.d.mts").NereusVitestOptions} options */
export function defineNereusVitestConfig(options) {
  const reportDir = process.env.NEREUS_TEST_REPORT_DIR;
  const name = path.basename(options.packageDir);
  return defineConfig({
    resolve: { conditions: ["@nereus/source"] },
    ssr: { resolve: { conditions: ["@nereus/source"] } },
    test: {
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      testTimeout: options.testTimeoutMs ?? 30_000,
      hookTimeout: 120_000,
      globalSetup: options.services ? ["@nereus/test-services/vitest-global-setup"] : [],
      reporters: reportDir ? ["default", ["json", { outputFile: path.join(reportDir, `${name}.json`) }]] : ["default"],
    },
  });
}
