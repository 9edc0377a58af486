// Shared vitest preset: resolves workspace packages to their TypeScript sources (the `@nereus/source`
// export condition) so tests never wait for a build, keeps unit tests beside the code and integration tests
// under test/*.integration.test.ts, and writes a JSON report that `npm test` sums into its closing line.
import { defineConfig, type ViteUserConfig } from "vitest/config";
import path from "node:path";

export interface NereusVitestOptions {
  /** Package directory (pass `import.meta.dirname`). */
  readonly packageDir: string;
  /** Start the shared real services (etcd, S3, ZooKeeper, bookies) before integration tests. */
  readonly services?: boolean;
  readonly testTimeoutMs?: number;
}

export function defineNereusVitestConfig(options: NereusVitestOptions): ViteUserConfig {
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
