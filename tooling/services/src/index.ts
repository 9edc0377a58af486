// Public API of @nereus/test-services: start, share, fault and stop the real services tests use.
export {
  startServices,
  selectServices,
  formatTimings,
  ALL_SERVICES,
  type ServiceName,
  type StartServicesOptions,
} from "./services.js";
export { RunningServices, type StopServicesOptions, type StopReport } from "./running-services.js";
export { loadServices, SERVICES_FILE_ENV } from "./load-services.js";
export { ServiceStartError } from "./errors.js";
export type {
  ServicesDescription,
  EtcdDescription,
  EtcdTlsDescription,
  EtcdAuthDescription,
  S3Description,
  ZooKeeperDescription,
  BookKeeperDescription,
  BookieDescription,
  StartTimings,
} from "./description.js";
export type { EtcdOptions } from "./etcd.js";
export { etcd3ClientOptions, type EtcdTlsOptions } from "./etcd-security.js";
export {
  generateTestCertificates,
  type TestCertificateFiles,
  type TestCertificateOptions,
} from "./test-certificates.js";
export type { S3Options } from "./s3proxy.js";
export { S3_DEFAULTS } from "./s3proxy.js";
export { s3ClientOptions, type S3ClientOptions } from "./s3-client-options.js";
export type { ZooKeeperOptions } from "./zookeeper.js";
export { fourLetterWord } from "./zookeeper.js";
export type { BookKeeperOptions } from "./bookkeeper.js";
export { LEDGERS_ROOT } from "./bookkeeper.js";
export type { ProcessRecord } from "./managed-process.js";
export type { JvmProfile } from "./run-context.js";
export {
  ensureArtifactSet,
  isArtifactSetCached,
  artifactSetDir,
  ARTIFACT_SETS,
  type ArtifactSetName,
} from "./maven-cache.js";
export { readStateFile, writeStateFile } from "./state-file.js";
export {
  JavaProgram,
  type JavaProgramOptions,
  type JavaRunOptions,
  type JavaRunResult,
  type SpawnedJava,
} from "./java-program.js";
