import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", main: "src/main.ts" },
  format: ["esm"],
  dts: { entry: { index: "src/index.ts" }, compilerOptions: { composite: false, customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: "node20",
});
