import { defineNereusVitestConfig } from "@nereus/tooling-config/vitest";

export default defineNereusVitestConfig({ packageDir: import.meta.dirname, services: false });
