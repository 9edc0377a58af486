import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", "protocol/index": "src/protocol/index.ts" },
  format: ["esm"],
  // Declarations are built per package against dependencies' built .d.ts (not their sources).
  dts: { compilerOptions: { composite: false, customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: "node20",
});
