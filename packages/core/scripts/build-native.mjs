// The install script of @nereus/core: builds native/crc32c.cc (hardware CRC32C, src/bytes/crc32c.ts). Without it
// crc32c() uses the portable @node-rs/crc32; the install never fails for it.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildAddon } from "./build-addon.mjs";

buildAddon({
  packageRoot: path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."),
  source: path.join("native", "crc32c.cc"),
  name: "crc32c",
  label: "hardware CRC32C",
  fallback: "crc32c() uses the portable implementation",
});
