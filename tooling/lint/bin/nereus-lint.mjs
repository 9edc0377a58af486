#!/usr/bin/env node
// Entry point of `nereus-lint`: loads the TypeScript sources through tsx (no build step) and runs the CLI in the
// current directory. See ../README.md.
import { tsImport } from "tsx/esm/api";

const { main } = await tsImport("../src/cli.ts", { parentURL: import.meta.url, tsconfig: false });
try {
  process.exitCode = await main(process.argv.slice(2), process.cwd());
} catch (error) {
  console.error(`nereus-lint: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
