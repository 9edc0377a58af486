// Pending-append bounds: while a lane is suspended (or a backend is slow) accepted appends pile up; beyond the
// process-wide count/byte bounds new appends are refused at once with retriable BACKPRESSURE_REJECTED and
// KNOWN_NOT_COMMITTED, before any I/O, and room comes back as pending appends settle.
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../src/errors/error-code.js";
import type { TxnRequest } from "../src/spi/metadata-store.js";
import { AppendProtocolHarness, expectAppendFailure, opaqueBatch } from "../src/testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";

const harnesses: AppendProtocolHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

describe("pending-append bounds", () => {
  it("refuses appends beyond the bound with BACKPRESSURE_REJECTED and admits again once they settle", async () => {
    const metadata = new InMemoryMetadataStore();
    const harness = new AppendProtocolHarness(metadata);
    harnesses.push(harness);
    const store = harness.open({ autoRecovery: false, maxPendingAppends: 2 });
    const { streamId } = await store.createStream("bounded", { profile: "BOOKKEEPER_WAL_ONLY" });
    const headKey = harness.keyspace.headKey(streamId);
    metadata.faults.add({
      op: "txn",
      mode: "hang-until-aborted",
      when: (request) => (request as TxnRequest).writes.some((write) => write.key === headKey),
    });
    const first = store.append(streamId, opaqueBatch("a"), { timeoutMs: 100 });
    const second = store.append(streamId, opaqueBatch("b"), { timeoutMs: 100 });
    const io = harness.walIo();
    await expectAppendFailure(store.append(streamId, opaqueBatch("c")), {
      code: ErrorCode.BACKPRESSURE_REJECTED,
      outcome: "KNOWN_NOT_COMMITTED",
      retryable: true,
    });
    expect(harness.walIo()).toBe(io);
    await expectAppendFailure(first, { code: ErrorCode.METADATA_UNAVAILABLE, outcome: "MAY_HAVE_COMMITTED" });
    await expectAppendFailure(second, { code: ErrorCode.TIMEOUT, outcome: "KNOWN_NOT_COMMITTED" });
    const reopened = harness.open({ maxPendingAppends: 2 });
    expect((await reopened.append(streamId, opaqueBatch("c"))).startOffset).toBe(0);
  });

  it("bounds payload bytes, but always admits one oversized append when nothing else is pending", async () => {
    const harness = new AppendProtocolHarness(new InMemoryMetadataStore());
    harnesses.push(harness);
    const store = harness.open({ maxPendingBytes: 8 });
    const { streamId } = await store.createStream("bytes", { profile: "BOOKKEEPER_WAL_ONLY" });
    expect((await store.append(streamId, opaqueBatch("a-very-long-payload"))).startOffset).toBe(0);
    const small = store.append(streamId, opaqueBatch("12345"));
    await expectAppendFailure(store.append(streamId, opaqueBatch("678901")), {
      code: ErrorCode.BACKPRESSURE_REJECTED,
      outcome: "KNOWN_NOT_COMMITTED",
    });
    expect((await small).startOffset).toBe(1);
    expect((await store.append(streamId, opaqueBatch("678901"))).startOffset).toBe(2);
  });
});
