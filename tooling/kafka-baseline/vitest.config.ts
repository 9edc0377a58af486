import { defineNereusVitestConfig } from "@nereus/tooling-config/vitest";
import { mergeConfig } from "vitest/config";

// One test file at a time: each starts JVMs and a broker, and the machine has two cores shared with others. The
// hooks start Apache Kafka (a format and a JVM; the first run also fetches the Maven jars), hence the long bound.
export default mergeConfig(
  defineNereusVitestConfig({ packageDir: import.meta.dirname, services: false, testTimeoutMs: 300_000 }),
  {
    test: { fileParallelism: false, hookTimeout: 300_000 },
  },
);
