import type { ViteUserConfig } from "vitest/config";

export interface NereusVitestOptions {
  /** Package directory (pass `import.meta.dirname`). */
  readonly packageDir: string;
  /**
   * Start the shared real services (etcd, S3, ZooKeeper, bookies) when the run includes an integration test
   * (`*.integration.test.ts`); a run of unit tests alone never starts them. Reused when `NEREUS_SERVICES_FILE`
   * already names running services (as under `npm test`).
   */
  readonly services?: boolean;
  /** Per-test timeout in milliseconds (default 30,000). */
  readonly testTimeoutMs?: number;
}

/** The shared vitest configuration of a Nereus workspace package. */
export function defineNereusVitestConfig(options: NereusVitestOptions): ViteUserConfig;
