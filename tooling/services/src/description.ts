// The JSON description of running services: what tests connect to (endpoints, credentials) and what the
// harness needs to stop or restart them from any process (PIDs, commands, ports). Written to the state file.
import type { ProcessRecord } from "./managed-process.js";

/** etcd v3 endpoint, and how to authenticate when it was started secured. */
export interface EtcdDescription {
  /** e.g. "http://127.0.0.1:41234", or "https://..." with `tls` (for etcd3: `new Etcd3({ hosts: endpoint })`). */
  readonly endpoint: string;
  /** Present when etcd serves TLS. */
  readonly tls?: EtcdTlsDescription;
  /** Present when etcd requires user/password authentication. */
  readonly auth?: EtcdAuthDescription;
}

/** PEM files of a TLS etcd (generated at start; the CA is the run's own). */
export interface EtcdTlsDescription {
  /** CA certificate that signed the server and client certificates. */
  readonly caFile: string;
  /** Client certificate (CN "nereus") and key, signed by the CA. */
  readonly certFile: string;
  readonly keyFile: string;
  /** The server's certificate (SAN 127.0.0.1, localhost) and key. */
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
  /** Whether etcd requires a client certificate (mutual TLS). */
  readonly clientCertAuth: boolean;
}

/** Users of an etcd with authentication enabled (passwords are random per run). */
export interface EtcdAuthDescription {
  /** The root user (role root: may administer users, roles and every key). */
  readonly rootUser: string;
  readonly rootPassword: string;
  /** The broker's user, whose only role may read and write keys under `keyPrefix`. */
  readonly username: string;
  readonly password: string;
  /** "/nereus/": every key of every Nereus cluster. */
  readonly keyPrefix: string;
}

/** S3 endpoint of s3proxy, ready for `new S3Client({ ...s3, credentials })`. */
export interface S3Description {
  /** e.g. "http://127.0.0.1:41235". */
  readonly endpoint: string;
  readonly region: string;
  /** A bucket created at start. */
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly forcePathStyle: true;
}

/** ZooKeeper 3.8 standalone server. */
export interface ZooKeeperDescription {
  /** e.g. "127.0.0.1:41236". */
  readonly connectString: string;
}

/** One bookie. */
export interface BookieDescription {
  /** Index in `bookies` (what killBookie/restartBookie take). */
  readonly index: number;
  /** Bookie id as registered in ZooKeeper: "127.0.0.1:<port>". */
  readonly id: string;
  /** host:port the bookie listens on (same as id). */
  readonly address: string;
  readonly port: number;
  /** PID of the bookie JVM (the current one after a restart). */
  readonly pid: number;
  /** Journal and ledger directories live under this directory. */
  readonly dataDir: string;
  readonly confFile: string;
  readonly logFile: string;
}

/** BookKeeper 4.17 bookies registered in the ZooKeeper above. */
export interface BookKeeperDescription {
  /** Ledgers root path in ZooKeeper, "/ledgers"; available bookies are under `${zkLedgersRoot}/available`. */
  readonly zkLedgersRoot: string;
  /** Metadata service URI as bookies and Java clients use it: "zk+hierarchical://127.0.0.1:<zkPort>/ledgers". */
  readonly metadataServiceUri: string;
  /** Bookie session timeout in ZooKeeper (ms): how long a killed bookie stays registered. */
  readonly zkTimeoutMs: number;
  readonly bookies: readonly BookieDescription[];
}

/** Time each service took to become ready, in ms (bookkeeper counts from ZooKeeper ready). */
export type StartTimings = Partial<
  Record<"prerequisites" | "etcd" | "s3" | "zookeeper" | "bookkeeper" | "total", number>
>;

/** Everything a state file holds. JSON-serializable. */
export interface ServicesDescription {
  readonly version: 1;
  readonly runId: string;
  /** Data, configs and logs of the run (removed by a successful stop unless kept). */
  readonly runDir: string;
  readonly startedAt: string;
  readonly etcd?: EtcdDescription;
  readonly s3?: S3Description;
  readonly zookeeper?: ZooKeeperDescription;
  readonly bookkeeper?: BookKeeperDescription;
  /** Every process of the run (bookies under "bookie-<i>"), with the command to restart it. */
  readonly processes: readonly ProcessRecord[];
  readonly timings: StartTimings;
  /**
   * PID of the orphan watchdog (runs started by the library, not by the CLI): it stops the run if the process
   * that started it dies without stopping it.
   */
  readonly watchdogPid?: number;
}
