// The entry of a worker thread that runs a TypeScript module from sources (see start-worker-module.ts): registers
// tsx in this thread, takes the module's URL from the first argument (so the module sees the arguments it was
// given) and imports it. Plain JavaScript because it runs before anything can compile TypeScript.
import { register } from "tsx/esm/api";

const [moduleUrl] = process.argv.splice(2, 1);
if (moduleUrl === undefined) throw new Error("run-typescript-worker.mjs needs the URL of the module to run");
register();
await import(moduleUrl);
