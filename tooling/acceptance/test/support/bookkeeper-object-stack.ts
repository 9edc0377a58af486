// One "process" of the BookKeeper object profiles on real services: a BookKeeper client on the harness's ZooKeeper
// and bookies, the BookKeeper WAL runtime (writer, BOOKKEEPER_ENTRY_RANGE reader, core's STABLE_HEAD and
// GENERATION_ZERO_VISIBLE coordinators), the Object WAL runtime over s3proxy (its worker reads BK ranges through the
// BK runtime's reader as a plain WalReader; lag admission; REQUIRED_OBJECT_GENERATION), etcd metadata, and a
// StreamStore composed from both. The S3 store is wrapped in a test-only FaultInjectingObjectStore so an outage hits
// the object store only (BookKeeper and etcd stay real). Composition lives here because providers never import
// each other (docs/architecture.md §2).
import { randomUUID } from "node:crypto";
import {
  createBookKeeperClient,
  createBookKeeperWalRuntime,
  type BookKeeperClient,
  type BookKeeperWalRuntime,
} from "@nereus/bookkeeper";
import { createStreamStore, type MetadataStore, type StreamStore } from "@nereus/core";
import { deleteObjectsUnder } from "@nereus/core/testing";
import { createEtcdMetadataStore } from "@nereus/metadata";
import {
  createObjectWalRuntime,
  createS3ObjectStore,
  type ObjectWalRuntime,
  type ObjectWalRuntimeOptions,
  type S3ObjectStore,
} from "@nereus/object-wal";
import { FaultInjectingObjectStore } from "@nereus/object-wal/testing";
import { loadServices, s3ClientOptions } from "@nereus/test-services";
import { Etcd3 } from "etcd3";

export const BK_PASSWORD = "nereus-acceptance";
export const BK_ALIAS = "bk-acceptance";
export const runId = randomUUID().slice(0, 8);
export const s3KeyPrefix = `acceptance/bookkeeper-object/${runId}/`;
export const clusterPrefix = `bkobj-${runId}-`;
let clusters = 0;

export interface BookKeeperObjectProcess {
  readonly cluster: string;
  readonly metadata: MetadataStore;
  readonly s3: S3ObjectStore;
  readonly objects: FaultInjectingObjectStore;
  readonly client: BookKeeperClient;
  readonly bk: BookKeeperWalRuntime;
  readonly objectWal: ObjectWalRuntime;
  readonly store: StreamStore;
  close(): Promise<void>;
}

export function s3Options(prefix = s3KeyPrefix) {
  const s3 = loadServices().s3;
  return {
    ...s3ClientOptions(s3),
    keyPrefix: prefix,
  };
}

export function bookKeeperClient(): BookKeeperClient {
  const services = loadServices();
  const bookkeeper = services.bookkeeper;
  const zookeeper = services.zookeeper;
  if (bookkeeper === undefined || zookeeper === undefined)
    throw new Error("the test services run no BookKeeper/ZooKeeper");
  return createBookKeeperClient({
    zooKeeperConnectString: zookeeper.connectString,
    ledgersRoot: bookkeeper.zkLedgersRoot,
  });
}

/** Opens a process on a fresh cluster (E=3 Qw=2 Qa=2, CRC32C). */
export async function openProcess(
  objectWal: Partial<ObjectWalRuntimeOptions> = {},
  writerId = "broker-1",
): Promise<BookKeeperObjectProcess> {
  clusters += 1;
  const cluster = `${clusterPrefix}${String(clusters)}`;
  const metadata = await createEtcdMetadataStore({ endpoints: [loadServices().etcd.endpoint] });
  const s3 = await createS3ObjectStore(s3Options());
  const objects = new FaultInjectingObjectStore(s3);
  const client = bookKeeperClient();
  const bk = createBookKeeperWalRuntime({
    client,
    metadata,
    cluster,
    clusterAlias: BK_ALIAS,
    ensembleSize: 3,
    writeQuorumSize: 2,
    ackQuorumSize: 2,
    password: BK_PASSWORD,
  });
  const owal = createObjectWalRuntime({
    objectStore: objects,
    metadata,
    cluster,
    writerId,
    sourceReaders: [bk.reader],
    ...objectWal,
  });
  const objectSide = owal.storeOptions({ builtInCoordinators: false });
  const store = createStreamStore({
    metadata,
    cluster,
    writerId,
    walWriters: bk.walWriters,
    walReaders: [...bk.walReaders, ...objectSide.walReaders],
    completionCoordinators: [...bk.completionCoordinators, ...objectSide.completionCoordinators],
    admissionHooks: [...bk.admissionHooks, ...objectSide.admissionHooks],
  });
  let closed: Promise<void> | undefined;
  return {
    cluster,
    metadata,
    s3,
    objects,
    client,
    bk,
    objectWal: owal,
    store,
    close: () => {
      closed ??= (async () => {
        await store.close();
        await owal.close();
        await bk.close();
        await client.close();
        await s3.close();
        await metadata.close();
      })();
      return closed;
    },
  };
}

/** Deletes this run's etcd keys and S3 objects (ledgers stay: the harness's bookies are per run). */
export async function cleanupRun(): Promise<void> {
  const admin = new Etcd3({ hosts: loadServices().etcd.endpoint });
  try {
    await admin.delete().prefix(`/nereus/clusters/${clusterPrefix}`);
  } finally {
    admin.close();
  }
  const store = await createS3ObjectStore(s3Options(""));
  try {
    await deleteObjectsUnder(store, s3KeyPrefix);
  } finally {
    await store.close();
  }
}
