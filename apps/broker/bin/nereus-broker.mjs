#!/usr/bin/env node
// Entry of the `nereus-broker` command: runs the built broker (`pnpm --filter @nereus/broker build` first).
await import("../dist/main.js");
