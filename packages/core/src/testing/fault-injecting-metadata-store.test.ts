import { describe, expect, it } from "vitest";
import { MetadataAmbiguousError } from "../errors/metadata-ambiguous-error.js";
import type { TxnRequest } from "../spi/metadata-store.js";
import { FaultInjectingMetadataStore } from "./fault-injecting-metadata-store.js";
import { InMemoryMetadataStore } from "./in-memory-metadata-store.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined): string | undefined =>
  value === undefined ? undefined : new TextDecoder().decode(value);

/** Moves `key` from `from` (absent when undefined) to `to`: the shape of a pipelined head CAS. */
const move = (key: string, from: string | undefined, to: string): TxnRequest => ({
  compares: [from === undefined ? { key, modRevision: 0 } : { key, value: bytes(from) }],
  writes: [{ type: "put", key, value: bytes(to) }],
});

describe("FaultInjectingMetadataStore", () => {
  it("declares the inner store's orderedTxns", () => {
    expect(new FaultInjectingMetadataStore(new InMemoryMetadataStore()).accelerations.orderedTxns).toBe(true);
    const unordered = new FaultInjectingMetadataStore(new InMemoryMetadataStore({ orderedTxns: false }));
    expect(unordered.accelerations.orderedTxns).toBe(false);
  });

  it("keeps the order of txns sent without awaiting: one chained on a failed txn fails its compare, on a lost answer it applies", async () => {
    const store = new FaultInjectingMetadataStore(new InMemoryMetadataStore());
    store.faults.add({ op: "txn", mode: "fail-before-apply" });
    const failed = store.txn(move("head", undefined, "1"));
    const chainedOnFailed = store.txn(move("head", "1", "2"));
    await expect(failed).rejects.toSatisfy((error: unknown) => !MetadataAmbiguousError.isAmbiguous(error));
    expect(await chainedOnFailed).toMatchObject({ succeeded: false });
    expect(await store.get("head")).toBeUndefined();

    store.faults.add({ op: "txn", mode: "apply-then-lose-response" });
    const lost = store.txn(move("head", undefined, "1"));
    const chainedOnLost = store.txn(move("head", "1", "2"));
    await expect(lost).rejects.toBeInstanceOf(MetadataAmbiguousError);
    expect(await chainedOnLost).toMatchObject({ succeeded: true });
    expect(text((await store.get("head"))?.value)).toBe("2");
  });
});
