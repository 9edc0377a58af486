#!/usr/bin/env node
// nereus-services: starts/stops the real test services (etcd, s3proxy, ZooKeeper, BookKeeper bookies) on
// loopback. Runs the TypeScript sources through tsx; see ../README.md.
import { register } from "tsx/esm/api";

// The harness only talks to its own loopback s3proxy; the SDK's Node 20 end-of-support notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
register();
const { main } = await import("../src/cli.ts");
const code = await main(process.argv.slice(2));
// Exit explicitly: started services are detached and must not keep this process alive.
process.exit(code);
