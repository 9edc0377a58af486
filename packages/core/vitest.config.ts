import { defineNereusVitestConfig } from "@nereus/tooling-config/vitest";

// No service: core's tests run against the in-memory reference providers.
export default defineNereusVitestConfig({ packageDir: import.meta.dirname, services: false });
