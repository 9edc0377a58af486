// Shared preset with services off: these tests build fixture workspaces in temp dirs and need no real services.
// The preset ships as TypeScript source and vite's config bundler leaves package imports to Node, which cannot
// load .ts on Node 20; tsx loads it instead. Back to a plain `import` once @nereus/tooling-config ships JavaScript.
import type { defineNereusVitestConfig as DefineNereusVitestConfig } from "@nereus/tooling-config/vitest";
import { tsImport } from "tsx/esm/api";

const { defineNereusVitestConfig } = (await tsImport("@nereus/tooling-config/vitest", import.meta.url)) as {
  defineNereusVitestConfig: typeof DefineNereusVitestConfig;
};

export default defineNereusVitestConfig({ packageDir: import.meta.dirname, services: false });
