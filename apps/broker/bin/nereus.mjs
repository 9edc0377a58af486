#!/usr/bin/env -S node --initial-old-space-size=256 --max-semi-space-size=64 --interrupt-budget=4096 --always-sparkplug --no-lazy-feedback-allocation
// Entry of the `nereus` command (also installed as `nereus-broker`): runs the built broker
// (`pnpm --filter @nereus/broker build` first). The node flags are the broker's `nereusNodeFlags` (package.json;
// see the README's "Node flags").
await import("../dist/main.js");
