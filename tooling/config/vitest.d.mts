import type { ViteUserConfig } from "vitest/config";

export interface NereusVitestOptions {
  /** Package directory (pass `import.meta.dirname`). */
  readonly packageDir: string;
  /** Start the shared real services (etcd, S3, ZooKeeper, bookies) before integration tests. */
  readonly services?: boolean;
  readonly testTimeoutMs?: number;
}

/** The shared vitest configuration of a Nereus workspace package. */
export function defineNereusVitestConfig(options: NereusVitestOptions): ViteUserConfig;
