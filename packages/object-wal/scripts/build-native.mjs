// The install script of @nereus/object-wal: builds native/segment-map.cc, the memory maps that serve the
// filesystem store's reads of recent segments (src/segments/segment-maps.ts), with @nereus/core's addon builder.
// Without it (no compiler, no Node headers, Windows) the store reads those segments with pread; the install never
// fails for it.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildAddon } from "@nereus/core/build-addon";

buildAddon({
  packageRoot: path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."),
  source: path.join("native", "segment-map.cc"),
  name: "segment_map",
  label: "native segment maps",
  fallback: "segment reads use pread",
});
