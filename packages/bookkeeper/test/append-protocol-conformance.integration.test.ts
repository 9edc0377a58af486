// The append-protocol conformance suite of @nereus/core with the BookKeeper WAL runtime on the harness's three real
// bookies (E=3 Qw=2 Qa=2) for the BOOKKEEPER profiles, the in-memory object WAL for the OBJECT ones, and the
// in-memory metadata store. Corruption is injected on the bookies (kit.corrupt: forged entries with valid digests,
// so only the range checksum can notice); persist faults on the in-memory object WAL.
import { InMemoryMetadataStore, MemoryWalProvider, describeAppendProtocolConformance } from "@nereus/core/testing";
import { loadServices } from "@nereus/test-services";
import { afterAll } from "vitest";
import { BookKeeperWalKit, freshCluster } from "./support/bookkeeper-wal-kit.js";

const kit = new BookKeeperWalKit(loadServices());
const client = kit.client();
afterAll(() => kit.close());

describeAppendProtocolConformance(
  "BookKeeper WAL runtime (3 real bookies) + in-memory object WAL, InMemoryMetadataStore",
  async () => {
    const metadata = new InMemoryMetadataStore();
    const cluster = freshCluster("append-conformance");
    const runtime = kit.runtime(metadata, cluster, { client });
    const objectWal = new MemoryWalProvider({ walKind: "OBJECT" });
    return {
      metadata,
      cluster,
      wal: {
        walWriters: [objectWal, ...runtime.walWriters],
        walReaders: [objectWal, ...runtime.walReaders],
        completionCoordinators: runtime.completionCoordinators,
        walIo: () => objectWal.stats.physicalIo + runtime.stats.bookKeeperIo,
        corrupt: async (target) => {
          if (target.type === "OBJECT_SLICE") {
            objectWal.corrupt(target);
            return;
          }
          await kit.corrupt(target);
          runtime.reader.clearCache();
        },
        objectPersistFaults: {
          add: (mode) => objectWal.faults.add({ op: "persist", mode }),
          targetCount: () => objectWal.targetCount,
        },
      },
      cleanup: async () => {
        await runtime.close();
        await metadata.close();
      },
    };
  },
  { walCapabilities: ["corrupt", "object-persist-faults"] },
);
