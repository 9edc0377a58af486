// etcd3, an optional peer dependency of @nereus/metadata: loaded when an etcd metadata store connects, so a user of
// the embedded SQLite store does not install the etcd client and its gRPC stack.
import { importOptionalDependency, type OptionalDependency } from "@nereus/core/internal";
import type * as Etcd3Module from "etcd3";

/** The etcd3 module: the client class and the error classes map-etcd-error.ts tells apart. */
export type Etcd3 = typeof Etcd3Module;

/** The package, the range package.json declares for it, and its loader. */
export const ETCD3: OptionalDependency<Etcd3> = {
  packageName: "etcd3",
  versionRange: "^1.1.2",
  neededBy: "the etcd metadata store (createEtcdMetadataStore of @nereus/metadata)",
  load: () => import("etcd3"),
};

/** The etcd3 module. Throws `DEPENDENCY_UNAVAILABLE` naming the package when it cannot load. */
export async function loadEtcd3(): Promise<Etcd3> {
  return importOptionalDependency(ETCD3);
}
