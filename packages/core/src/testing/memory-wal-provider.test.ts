import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { streamIdFromName } from "../identity/stream-id-from-name.js";
import type { PrimaryWalKind } from "../domain/storage-profile.js";
import { InMemoryMetadataStore } from "./in-memory-metadata-store.js";
import { MemoryWalProvider } from "./memory-wal-provider.js";
import { describeWalProviderConformance } from "./wal-provider-conformance.js";

for (const walKind of ["OBJECT", "BOOKKEEPER"] as const) {
  describeWalProviderConformance(
    `MemoryWalProvider (${walKind})`,
    async () => {
      const provider = new MemoryWalProvider({ walKind });
      return {
        writer: provider,
        reader: provider,
        metadata: new InMemoryMetadataStore(),
        corrupt: async (target) => provider.corrupt(target),
      };
    },
    { supportsCorruption: true },
  );
}

const streamId = streamIdFromName("memory-wal-unit");
const request = (attemptId: string) => ({
  streamId,
  attemptId,
  writerId: "w",
  writerEpoch: 1,
  expectedStartOffset: 0,
  payloadFormat: "OPAQUE_RECORD_BATCH" as const,
  entries: [{ payload: new TextEncoder().encode("x"), recordCount: 1 }],
});

describe.each<PrimaryWalKind>(["OBJECT", "BOOKKEEPER"])("MemoryWalProvider faults and counters (%s)", (walKind) => {
  it("counts prepares without I/O and each persist and read as physical I/O", async () => {
    const provider = new MemoryWalProvider({ walKind });
    const prepared = provider.prepare(request("a/1"));
    expect(provider.stats.physicalIo).toBe(0);
    const persisted = await provider.persist(prepared);
    await provider.readEntries(persisted.readTarget);
    expect(provider.stats).toMatchObject({ prepares: 1, persists: 1, reads: 1 });
    expect(provider.stats.physicalIo).toBe(2);
  });

  it("fail-before-persist stores nothing", async () => {
    const provider = new MemoryWalProvider({ walKind });
    provider.faults.add({ op: "persist", mode: "fail-before-persist" });
    await expect(provider.persist(provider.prepare(request("a/2")))).rejects.toSatisfy((error: unknown) =>
      NereusError.hasCode(error, ErrorCode.PRIMARY_WAL_WRITE_FAILED),
    );
    expect(provider.targetCount).toBe(0);
  });

  it("persist-then-lose-response stores the bytes; persisting the same write again returns that target", async () => {
    const provider = new MemoryWalProvider({ walKind });
    const prepared = provider.prepare(request("a/3"));
    provider.faults.add({ op: "persist", mode: "persist-then-lose-response" });
    await expect(provider.persist(prepared)).rejects.toThrow(/response was lost/);
    expect(provider.targetCount).toBe(1);
    const again = await provider.persist(prepared);
    expect((await provider.readEntries(again.readTarget))[0]?.payload).toEqual(new TextEncoder().encode("x"));
    expect(provider.targetCount).toBe(1);
  });

  it("corrupt-stored-bytes acknowledges the write but the read fails its checksum", async () => {
    const provider = new MemoryWalProvider({ walKind });
    provider.faults.add({ op: "persist", mode: "corrupt-stored-bytes" });
    const persisted = await provider.persist(provider.prepare(request("a/4")));
    await expect(provider.readEntries(persisted.readTarget)).rejects.toSatisfy((error: unknown) =>
      NereusError.hasCode(error, ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH),
    );
  });

  it("hang-until-aborted holds persist until its signal aborts", async () => {
    const provider = new MemoryWalProvider({ walKind });
    provider.faults.add({ op: "persist", mode: "hang-until-aborted" });
    const controller = new AbortController();
    const pending = provider.persist(provider.prepare(request("a/5")), { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toSatisfy((error: unknown) => NereusError.hasCode(error, ErrorCode.CANCELLED));
    expect(provider.targetCount).toBe(0);
  });
});
