import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    internal: "src/internal.ts",
    "testing/index": "src/testing/index.ts",
    "publish-worker-thread": "src/file-system/publish-worker/publish-worker-thread.ts",
  },
  format: ["esm"],
  // Declarations are built per package against dependencies' built .d.ts (not their sources).
  dts: { compilerOptions: { composite: false, customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: "node20",
});
