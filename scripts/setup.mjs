// `npm run setup`: installs the pinned pnpm and the workspace dependencies, nothing else.
import { ensureDependencies, log } from "./lib.mjs";

await ensureDependencies();
log("dependencies installed");
