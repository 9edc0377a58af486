import { cp } from "node:fs/promises";
import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", main: "src/main.ts" },
  format: ["esm"],
  dts: { entry: { index: "src/index.ts" }, compilerOptions: { composite: false, customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: "node20",
  // The web console's static files (src/admin/console-route.ts serves them from beside the bundle).
  onSuccess: async () => {
    await cp("src/admin/console", "dist/console", { recursive: true });
  },
});
