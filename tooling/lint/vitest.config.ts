// Shared preset with services off: these tests build fixture workspaces in temp dirs and need no real services.
import { defineNereusVitestConfig } from "@nereus/tooling-config/vitest";

export default defineNereusVitestConfig({ packageDir: import.meta.dirname, services: false });
