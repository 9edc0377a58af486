// `npm run setup`: installs the workspace dependencies (with the workspace's pinned pnpm), nothing else.
import { ensureDependencies, log } from "./lib.mjs";

await ensureDependencies();
log("dependencies installed");
