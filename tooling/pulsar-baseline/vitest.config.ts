import { defineNereusVitestConfig } from "@nereus/tooling-config/vitest";
import { mergeConfig } from "vitest/config";

// One test file at a time: the integration test starts an Apache Pulsar standalone JVM (tens of seconds on a busy
// 2-core machine) and driver JVMs, hence the long bounds.
export default mergeConfig(
  defineNereusVitestConfig({ packageDir: import.meta.dirname, services: false, testTimeoutMs: 300_000 }),
  {
    test: { fileParallelism: false, hookTimeout: 300_000 },
  },
);
