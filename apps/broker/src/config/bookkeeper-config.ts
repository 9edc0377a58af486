// The BookKeeper section of the broker configuration (`storage.bookkeeper`), present when the broker serves the
// BookKeeper profiles: where the cluster is (a ZooKeeper connect string and ledgers root, or BookKeeper's metadata
// service URI `zk+hierarchical://zk1:2181;zk2:2181/ledgers`), the parameters of the ledgers the BookKeeper WAL
// writes (ensemble, write and ack quorum, digest type and password) and the timeouts. The validated section always
// names the connect string and the ledgers root; a metadata service URI is resolved into them.
import { z } from "zod";

/** Entry digests a ledger may use (BookKeeper's DigestType; HMAC is the Java client's MAC). */
const BOOKKEEPER_DIGEST_TYPES = ["CRC32C", "CRC32", "HMAC", "DUMMY"] as const;

/** Where ledger metadata lives when neither the ledgers root nor the URI names it. */
const DEFAULT_LEDGERS_ROOT = "/ledgers";

const quorum = z.int().min(1).max(255);
const timeoutMs = z.int().min(100).max(600_000);
const ledgersRoot = z
  .string()
  .regex(/^(\/[^/\s]+)+$/, 'must be an absolute ZooKeeper path such as "/ledgers" (no trailing slash)');

/** ZooKeeper coordinates of a BookKeeper cluster. */
interface ZooKeeperLocation {
  readonly zooKeeper: string;
  readonly ledgersRoot: string;
}

/**
 * Resolves a metadata service URI (`zk://` or `zk+hierarchical://`, hosts separated by `;` or `,`, the path being the
 * ledgers root) into a ZooKeeper connect string and ledgers root; a string saying what is wrong otherwise.
 */
export function parseMetadataServiceUri(uri: string): ZooKeeperLocation | string {
  const match = /^([a-z+]+):\/\/([^/]+)(\/.*)?$/.exec(uri);
  if (match === null) return "must look like zk+hierarchical://host:2181[;host:2181...]/ledgers";
  const [, scheme = "", hosts = "", path] = match;
  if (scheme !== "zk" && scheme !== "zk+hierarchical")
    return `scheme ${scheme} is not served: the broker reads ledger metadata from ZooKeeper with the hierarchical layout (zk+hierarchical://)`;
  const servers = hosts.split(/[;,]/);
  if (servers.some((server) => !/^[^:\s]+:\d{1,5}$/.test(server)))
    return "its hosts must be host:port, separated by ; or ,";
  const root = path === undefined || path === "/" ? DEFAULT_LEDGERS_ROOT : path;
  if (!ledgersRoot.safeParse(root).success) return `its path ${root} is not a ZooKeeper path such as /ledgers`;
  return { zooKeeper: servers.join(","), ledgersRoot: root };
}

export const BookKeeperConfigSchema = z
  .strictObject({
    /** BookKeeper's metadata service URI; instead of `zooKeeper` and `ledgersRoot`. */
    metadataServiceUri: z.string().min(1).optional(),
    /** ZooKeeper connect string of the BookKeeper cluster: `host:port[,host:port...]`. */
    zooKeeper: z
      .string()
      .regex(
        /^[^:,\s]+:\d{1,5}(,[^:,\s]+:\d{1,5})*(\/\S*)?$/,
        "must be host:port[,host:port...] (a ZooKeeper connect string)",
      )
      .optional(),
    /** Where the cluster keeps its ledger metadata in ZooKeeper (default /ledgers). */
    ledgersRoot: ledgersRoot.optional(),
    /** Bookies each ledger is striped over. */
    ensembleSize: quorum.default(3),
    /** Bookies each entry is written to. */
    writeQuorum: quorum.default(2),
    /** Bookies that must confirm an entry before it counts as written. */
    ackQuorum: quorum.default(2),
    digestType: z
      .enum(BOOKKEEPER_DIGEST_TYPES, { error: `must be one of ${BOOKKEEPER_DIGEST_TYPES.join(", ")}` })
      .default("CRC32C"),
    /** Password of every ledger (a secret: never logged). Reads need the one the ledgers were written with. */
    password: z.string().default(""),
    /** Names this BookKeeper cluster in the stream records; ledgers written under one alias are read under it only. */
    clusterAlias: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, "must match [A-Za-z0-9_.-]+")
      .default("bookkeeper"),
    /** How long start-up waits for ZooKeeper to answer with the writable bookies. */
    startupTimeoutMs: timeoutMs.default(10_000),
    /** Session timeout asked of ZooKeeper. */
    zooKeeperSessionTimeoutMs: timeoutMs.default(30_000),
    /** TCP connect deadline to a bookie. */
    connectTimeoutMs: timeoutMs.default(5_000),
    /** Deadline of one bookie request; an add that misses it replaces the bookie in the ensemble. */
    requestTimeoutMs: timeoutMs.default(10_000),
    /** When a stream's ledger is closed and the next one started (Pulsar's managed-ledger defaults). */
    ledgerRollover: z
      .strictObject({
        maxEntries: z.int().min(1).max(Number.MAX_SAFE_INTEGER).default(50_000),
        maxBytes: z
          .int()
          .min(1)
          .max(Number.MAX_SAFE_INTEGER)
          .default(2 * 1024 ** 3),
        maxAgeMs: z
          .int()
          .min(1)
          .max(Number.MAX_SAFE_INTEGER)
          .default(4 * 60 * 60 * 1000),
      })
      .prefault({}),
  })
  .superRefine((value, context) => {
    if (value.metadataServiceUri === undefined && value.zooKeeper === undefined) {
      context.addIssue({
        code: "custom",
        message:
          "names no BookKeeper cluster: give zooKeeper (e.g. 127.0.0.1:2181) or metadataServiceUri (e.g. zk+hierarchical://127.0.0.1:2181/ledgers)",
      });
    }
    if (value.metadataServiceUri !== undefined) {
      if (value.zooKeeper !== undefined || value.ledgersRoot !== undefined) {
        context.addIssue({
          code: "custom",
          message: "give metadataServiceUri or zooKeeper with ledgersRoot, not both",
          path: ["metadataServiceUri"],
        });
      }
      const parsed = parseMetadataServiceUri(value.metadataServiceUri);
      if (typeof parsed === "string")
        context.addIssue({ code: "custom", message: parsed, path: ["metadataServiceUri"] });
    }
    if (value.writeQuorum > value.ensembleSize) {
      context.addIssue({
        code: "custom",
        message: `writeQuorum ${String(value.writeQuorum)} exceeds ensembleSize ${String(value.ensembleSize)}`,
        path: ["writeQuorum"],
      });
    }
    if (value.ackQuorum > value.writeQuorum) {
      context.addIssue({
        code: "custom",
        message: `ackQuorum ${String(value.ackQuorum)} exceeds writeQuorum ${String(value.writeQuorum)}`,
        path: ["ackQuorum"],
      });
    }
  })
  .transform(({ metadataServiceUri, zooKeeper, ledgersRoot: root, ...rest }) => {
    const location =
      metadataServiceUri === undefined
        ? { zooKeeper: zooKeeper ?? "", ledgersRoot: root ?? DEFAULT_LEDGERS_ROOT }
        : (parseMetadataServiceUri(metadataServiceUri) as ZooKeeperLocation);
    return { ...location, ...rest };
  });

/** The validated BookKeeper section (`zooKeeper` and `ledgersRoot` always set). */
export type BookKeeperConfig = z.output<typeof BookKeeperConfigSchema>;
