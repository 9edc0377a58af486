import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { MetadataAmbiguousError } from "../errors/metadata-ambiguous-error.js";
import { NereusError } from "../errors/nereus-error.js";
import type { TxnRequest } from "../spi/metadata-store.js";
import { InMemoryMetadataStore } from "./in-memory-metadata-store.js";
import { describeMetadataStoreConformance } from "./metadata-store-conformance.js";
import { rejectionOf } from "./rejections.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined): string | undefined =>
  value === undefined ? undefined : new TextDecoder().decode(value);
const putIfAbsent = (key: string, value: string): TxnRequest => ({
  compares: [{ key, modRevision: 0 }],
  writes: [{ type: "put", key, value: bytes(value) }],
  readOnFailure: [key],
});

describeMetadataStoreConformance("InMemoryMetadataStore conformance", async () => ({
  store: new InMemoryMetadataStore(),
  prefix: "conformance/",
}));

describe("InMemoryMetadataStore fault injection", () => {
  it("fail-before-apply throws non-ambiguous METADATA_UNAVAILABLE and applies nothing", async () => {
    const store = new InMemoryMetadataStore();
    store.faults.add({ op: "txn", mode: "fail-before-apply" });
    const error = await rejectionOf(store.txn(putIfAbsent("a", "1")));
    expect(NereusError.hasCode(error, ErrorCode.METADATA_UNAVAILABLE)).toBe(true);
    expect(MetadataAmbiguousError.isAmbiguous(error)).toBe(false);
    expect((error as NereusError).details["ambiguous"]).toBe(false);
    expect(store.snapshot().size).toBe(0);
    // The rule fired once (default times = 1); the retry applies.
    await expect(store.txn(putIfAbsent("a", "1"))).resolves.toMatchObject({ succeeded: true });
  });

  it("apply-then-lose-response applies the txn and throws MetadataAmbiguousError", async () => {
    const store = new InMemoryMetadataStore();
    store.faults.add({ op: "txn", mode: "apply-then-lose-response" });
    const error = await rejectionOf(store.txn(putIfAbsent("a", "1")));
    expect(error).toBeInstanceOf(MetadataAmbiguousError);
    expect(MetadataAmbiguousError.isAmbiguous(error)).toBe(true);
    expect(text(store.snapshot().get("a")?.value)).toBe("1");
    // Resolving by reload: the retry's compare fails and shows our own value.
    const retry = await store.txn(putIfAbsent("a", "1"));
    expect(retry.succeeded).toBe(false);
    if (!retry.succeeded) expect(text(retry.current.get("a")?.value)).toBe("1");
  });

  it("apply-then-lose-response on a read throws non-ambiguous METADATA_UNAVAILABLE", async () => {
    const store = new InMemoryMetadataStore();
    await store.txn(putIfAbsent("a", "1"));
    store.faults.add({ op: "get", mode: "apply-then-lose-response" });
    const error = await rejectionOf(store.get("a"));
    expect(NereusError.hasCode(error, ErrorCode.METADATA_UNAVAILABLE)).toBe(true);
    expect(MetadataAmbiguousError.isAmbiguous(error)).toBe(false);
  });

  it("hang-until-aborted hangs a read until its signal aborts, then throws CANCELLED", async () => {
    const store = new InMemoryMetadataStore();
    store.faults.add({ op: "scan", mode: "hang-until-aborted" });
    const controller = new AbortController();
    const pending = rejectionOf(store.scan("p/", { limit: 10, signal: controller.signal }));
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    controller.abort();
    const error = await pending;
    expect(NereusError.hasCode(error, ErrorCode.CANCELLED)).toBe(true);
  });

  it("hang-until-aborted on a txn applies nothing and is ambiguous when aborted", async () => {
    const store = new InMemoryMetadataStore();
    store.faults.add({ op: "txn", mode: "hang-until-aborted" });
    const controller = new AbortController();
    const pending = rejectionOf(store.txn(putIfAbsent("a", "1"), { signal: controller.signal }));
    controller.abort();
    expect(MetadataAmbiguousError.isAmbiguous(await pending)).toBe(true);
    expect(store.snapshot().size).toBe(0);
  });

  it("close() rejects calls hung without a signal with STORAGE_CLOSED", async () => {
    const store = new InMemoryMetadataStore();
    store.faults.add({ op: "get", mode: "hang-until-aborted" });
    const pending = rejectionOf(store.get("a"));
    await store.close();
    expect(NereusError.hasCode(await pending, ErrorCode.STORAGE_CLOSED)).toBe(true);
  });

  it("rules match by op and `when`, fire `times` times, in insertion order, and clear() disarms them", async () => {
    const store = new InMemoryMetadataStore();
    const seen: unknown[] = [];
    store.faults.add({
      op: "txn",
      mode: "fail-before-apply",
      times: 2,
      when: (request) => {
        seen.push(request);
        return (request as TxnRequest).writes.some((write) => write.key === "head");
      },
    });
    store.faults.add({ op: "get", mode: "fail-before-apply", times: Number.POSITIVE_INFINITY });
    await expect(store.txn(putIfAbsent("other", "x"))).resolves.toMatchObject({ succeeded: true });
    await expect(store.txn(putIfAbsent("head", "x"))).rejects.toThrow(NereusError);
    await expect(store.txn(putIfAbsent("head", "x"))).rejects.toThrow(NereusError);
    await expect(store.txn(putIfAbsent("head", "x"))).resolves.toMatchObject({ succeeded: true });
    expect(seen).toHaveLength(3);
    expect(seen[0]).toEqual(putIfAbsent("other", "x"));
    for (let attempt = 0; attempt < 3; attempt++) await expect(store.get("head")).rejects.toThrow(NereusError);
    expect(store.faults.size).toBe(1);
    store.faults.clear();
    await expect(store.get("head")).resolves.toMatchObject({ key: "head" });
  });

  it("passes the key, keys and prefix to `when` for reads", async () => {
    const store = new InMemoryMetadataStore();
    const requests: unknown[] = [];
    const record = (request: unknown): boolean => {
      requests.push(request);
      return false;
    };
    store.faults.add({ op: "get", mode: "fail-before-apply", when: record });
    store.faults.add({ op: "getMany", mode: "fail-before-apply", when: record });
    store.faults.add({ op: "scan", mode: "fail-before-apply", when: record });
    await store.get("k");
    await store.getMany(["k1", "k2"]);
    await store.scan("p/", { limit: 1 });
    expect(requests).toEqual(["k", ["k1", "k2"], "p/"]);
  });

  it("rejects a non-positive or fractional `times`", () => {
    const store = new InMemoryMetadataStore();
    expect(() => store.faults.add({ op: "get", mode: "fail-before-apply", times: 0 })).toThrow(TypeError);
    expect(() => store.faults.add({ op: "get", mode: "fail-before-apply", times: 1.5 })).toThrow(TypeError);
  });
});

describe("InMemoryMetadataStore stats", () => {
  it("counts every call that reached the store, faults included, and resets", async () => {
    const store = new InMemoryMetadataStore();
    store.faults.add({ op: "txn", mode: "fail-before-apply" });
    await expect(store.txn(putIfAbsent("a", "1"))).rejects.toThrow(NereusError);
    await store.txn(putIfAbsent("a", "1"));
    await store.get("a");
    await store.getMany(["a", "b"]);
    await store.scan("", { limit: 5 });
    const lease = await store.grantLease(1_000);
    await lease.keepAlive();
    expect(store.stats).toMatchObject({ gets: 1, getManys: 1, scans: 1, txns: 2, roundTrips: 7 });
    store.stats.reset();
    expect(store.stats).toMatchObject({ gets: 0, getManys: 0, scans: 0, txns: 0, roundTrips: 0 });
  });

  it("does not count calls rejected before they were sent", async () => {
    const store = new InMemoryMetadataStore();
    await expect(store.get("a", { signal: AbortSignal.abort() })).rejects.toThrow(NereusError);
    await expect(store.get("")).rejects.toThrow(NereusError);
    expect(store.stats.roundTrips).toBe(0);
  });
});

describe("InMemoryMetadataStore leases on a controlled clock", () => {
  it("expires a lease exactly at its TTL unless kept alive, deleting its keys at a new revision", async () => {
    let now = 1_000;
    const store = new InMemoryMetadataStore({ clock: () => now });
    const lease = await store.grantLease(500);
    const put = await store.txn({
      compares: [],
      writes: [{ type: "put", key: "r", value: bytes("x"), leaseId: lease.id }],
    });
    now += 499;
    await lease.keepAlive();
    now += 499;
    expect(await store.get("r")).toBeDefined();
    now += 1;
    expect(await store.get("r")).toBeUndefined();
    await expect(lease.keepAlive()).rejects.toSatisfy((error) =>
      NereusError.hasCode(error, ErrorCode.METADATA_CONDITION_FAILED),
    );
    // Expiry took one revision of its own: the next write is two past the leased put.
    const next = await store.txn({ compares: [], writes: [{ type: "put", key: "s", value: bytes("y") }] });
    expect(put).toEqual({ succeeded: true, revision: 1 });
    expect(next).toEqual({ succeeded: true, revision: 3 });
  });

  it("a put without a lease detaches the key from its lease", async () => {
    let now = 0;
    const store = new InMemoryMetadataStore({ clock: () => now });
    const lease = await store.grantLease(100);
    await store.txn({ compares: [], writes: [{ type: "put", key: "k", value: bytes("1"), leaseId: lease.id }] });
    await store.txn({ compares: [], writes: [{ type: "put", key: "k", value: bytes("2") }] });
    now = 1_000;
    expect(text((await store.get("k"))?.value)).toBe("2");
  });

  it("rejects a put with an unknown lease and applies nothing", async () => {
    const store = new InMemoryMetadataStore();
    const error = await rejectionOf(
      store.txn({
        compares: [],
        writes: [
          { type: "put", key: "a", value: bytes("1") },
          { type: "put", key: "b", value: bytes("1"), leaseId: "999" },
        ],
      }),
    );
    expect(NereusError.hasCode(error, ErrorCode.METADATA_CONDITION_FAILED)).toBe(true);
    expect(store.snapshot().size).toBe(0);
  });
});

describe("InMemoryMetadataStore argument checks", () => {
  it("rejects duplicate write keys and oversized txns", async () => {
    const store = new InMemoryMetadataStore();
    const duplicate = await rejectionOf(
      store.txn({
        compares: [],
        writes: [
          { type: "put", key: "a", value: bytes("1") },
          { type: "delete", key: "a" },
        ],
      }),
    );
    expect(NereusError.hasCode(duplicate, ErrorCode.INVALID_ARGUMENT)).toBe(true);
    const writes = Array.from({ length: 129 }, (_, index) => ({
      type: "put" as const,
      key: `k${index}`,
      value: bytes(""),
    }));
    const oversized = await rejectionOf(store.txn({ compares: [], writes }));
    expect(NereusError.hasCode(oversized, ErrorCode.METADATA_LIMIT_EXCEEDED)).toBe(true);
  });

  it("rejects keys with lone surrogates (they have no UTF-8 encoding)", async () => {
    const store = new InMemoryMetadataStore();
    await expect(store.get("a\uD800")).rejects.toSatisfy((error) =>
      NereusError.hasCode(error, ErrorCode.INVALID_ARGUMENT),
    );
  });

  it("snapshot() lists keys in UTF-8 byte order, which differs from UTF-16 order above U+FFFF", async () => {
    const store = new InMemoryMetadataStore();
    // UTF-16: "\uFF21" (0xFF21) > "\u{1F600}" (0xD83D...); UTF-8: EF BC A1 < F0 9F 98 80.
    for (const key of ["\u{1F600}", "\uFF21", "a"]) await store.txn(putIfAbsent(key, key));
    expect([...store.snapshot().keys()]).toEqual(["a", "\uFF21", "\u{1F600}"]);
  });
});
