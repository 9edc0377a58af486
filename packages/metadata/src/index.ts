// Public API of @nereus/metadata: MetadataStore implementations over etcd (clusters) and SQLite (embedded).
export { EtcdMetadataStore, createEtcdMetadataStore, type EtcdMetadataStoreOptions } from "./etcd-metadata-store.js";
export type { EtcdAuthOptions, EtcdTlsOptions, Pem } from "./etcd/etcd-security-options.js";
export {
  SqliteMetadataStore,
  createSqliteMetadataStore,
  type SqliteMetadataStoreOptions,
} from "./sqlite/sqlite-metadata-store.js";
export type { SqliteWriterTimings } from "./sqlite/sqlite-writer-thread.js";
export type { SqliteReadCacheStats } from "./sqlite/sqlite-read-cache.js";
