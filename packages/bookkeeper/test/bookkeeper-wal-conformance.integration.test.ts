// The WAL provider conformance suite of @nereus/core against the BookKeeper WAL on the harness's three real
// bookies (E=3 Qw=2 Qa=2, CRC32C), with corruption detection: the stored entries of a target are overwritten on
// every replica with valid frames of other bytes, and the read must fail its range checksum.
import { describeWalProviderConformance, InMemoryMetadataStore } from "@nereus/core/testing";
import { loadServices } from "@nereus/test-services";
import { afterAll } from "vitest";
import { BookKeeperWalKit, freshCluster } from "./support/bookkeeper-wal-kit.js";

const kit = new BookKeeperWalKit(loadServices());
const client = kit.client();
afterAll(() => kit.close());

describeWalProviderConformance(
  "BookKeeper WAL (3 real bookies, E=3 Qw=2 Qa=2)",
  async () => {
    const metadata = new InMemoryMetadataStore();
    const runtime = kit.runtime(metadata, freshCluster("wal-conformance"), { client });
    return {
      writer: runtime.writer,
      reader: runtime.reader,
      metadata,
      corrupt: async (target) => {
        await kit.corrupt(target);
        runtime.reader.clearCache();
      },
      cleanup: async () => {
        await runtime.close();
        await metadata.close();
      },
    };
  },
  { supportsCorruption: true },
);
