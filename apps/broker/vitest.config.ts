import { defineNereusVitestConfig } from "@nereus/tooling-config/vitest";

// Integration tests start brokers (in-process and as child processes) and real clients; they share etcd and
// s3proxy from the service harness.
export default defineNereusVitestConfig({ packageDir: import.meta.dirname, services: true, testTimeoutMs: 180_000 });
