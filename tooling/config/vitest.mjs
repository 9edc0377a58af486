// Shared vitest preset: resolves workspace packages to their TypeScript sources (the `@nereus/source`
// export condition) so tests never wait for a build, keeps unit tests beside the code and integration tests
// under test/*.integration.test.ts, and writes a JSON report that `npm test` sums into its closing line.
// With `services: true` the tests form two vitest projects, "unit" and "integration"; only the integration project
// has the services global setup, and vitest runs a project's global setup only when the run selects one of its
// files, so a run of unit tests alone never starts etcd, s3proxy, ZooKeeper or the bookies.
// Plain JavaScript on purpose: vitest loads config dependencies through Node, which cannot run .ts on Node 20.
import { configDefaults, defineConfig } from "vitest/config";
import path from "node:path";

/** Test files of a package; integration tests are the ones named `*.integration.test.ts`. */
const TEST_FILES = ["src/**/*.test.ts", "test/**/*.test.ts"];
const INTEGRATION_TEST_FILES = ["src/**/*.integration.test.ts", "test/**/*.integration.test.ts"];
const SERVICES_SETUP = "@nereus/test-services/vitest-global-setup";

/** @param {import("./vitest.d.mts").NereusVitestOptions} options */
export function defineNereusVitestConfig(options) {
  const reportDir = process.env.NEREUS_TEST_REPORT_DIR;
  const name = path.basename(options.packageDir);
  return defineConfig({
    resolve: { conditions: ["@nereus/source"] },
    ssr: { resolve: { conditions: ["@nereus/source"] } },
    test: {
      testTimeout: options.testTimeoutMs ?? 30_000,
      hookTimeout: 120_000,
      reporters: reportDir ? ["default", ["json", { outputFile: path.join(reportDir, `${name}.json`) }]] : ["default"],
      // Projects extend this config and vite merges arrays by concatenation, so `include` is set in one place only.
      ...(options.services ? { projects: splitByServices() } : { include: TEST_FILES }),
    },
  });
}

/** A "unit" project without services and an "integration" project whose global setup starts them. */
function splitByServices() {
  return [
    {
      extends: true,
      test: { name: "unit", include: TEST_FILES, exclude: [...configDefaults.exclude, ...INTEGRATION_TEST_FILES] },
    },
    {
      extends: true,
      test: { name: "integration", include: INTEGRATION_TEST_FILES, globalSetup: [SERVICES_SETUP] },
    },
  ];
}
