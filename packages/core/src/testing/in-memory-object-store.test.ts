import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { InMemoryObjectStore } from "./in-memory-object-store.js";
import { describeObjectStoreConformance } from "./object-store-conformance.js";
import { nereusRejectionOf } from "./rejections.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (value: Uint8Array): string => new TextDecoder().decode(value);

describeObjectStoreConformance("InMemoryObjectStore conformance", async () => ({
  store: new InMemoryObjectStore(),
  prefix: "conformance/",
}));

describe("InMemoryObjectStore fault injection", () => {
  it("fail-before-apply fails a put retryably and stores nothing", async () => {
    const store = new InMemoryObjectStore();
    store.faults.add({ op: "put", mode: "fail-before-apply" });
    const error = await nereusRejectionOf(store.putIfAbsent("k", bytes("v")));
    expect(error.code).toBe(ErrorCode.OBJECT_UPLOAD_FAILED);
    expect(error.retryable).toBe(true);
    expect(error.details["mayHaveApplied"]).toBe(false);
    await expect(store.head("k")).resolves.toBeUndefined();
    // The rule fired once (default times = 1).
    await expect(store.putIfAbsent("k", bytes("v"))).resolves.toEqual({ created: true });
  });

  it("apply-then-lose-response stores the object, then throws an error saying it may have applied", async () => {
    const store = new InMemoryObjectStore();
    store.faults.add({ op: "put", mode: "apply-then-lose-response" });
    const error = await nereusRejectionOf(store.putIfAbsent("k", bytes("mine")));
    expect(error.code).toBe(ErrorCode.OBJECT_UPLOAD_FAILED);
    expect(error.details["mayHaveApplied"]).toBe(true);
    expect(text(await store.get("k"))).toBe("mine");
    expect(store.stats.created).toBe(1);
  });

  it("corrupt-read flips one bit of what a get returns, and leaves the stored bytes intact", async () => {
    const store = new InMemoryObjectStore();
    await store.putIfAbsent("k", bytes("abcdef"));
    store.faults.add({ op: "get", mode: "corrupt-read", times: 2 });
    expect(text(await store.get("k"))).toBe("abceef");
    expect(text(await store.get("k", { offset: 1, length: 3 }))).toBe("bbd");
    expect(text(await store.get("k"))).toBe("abcdef");
  });

  it("get faults fail with OBJECT_READ_FAILED; rules match by op and key, in order, `times` times", async () => {
    const store = new InMemoryObjectStore();
    await store.putIfAbsent("a", bytes("1"));
    await store.putIfAbsent("b", bytes("2"));
    store.faults.add({ op: "get", mode: "fail-before-apply", times: 2, when: (key) => key === "b" });
    store.faults.add({ op: "get", mode: "apply-then-lose-response" });
    expect(store.faults.size).toBe(2);
    expect((await nereusRejectionOf(store.get("b"))).code).toBe(ErrorCode.OBJECT_READ_FAILED);
    expect((await nereusRejectionOf(store.get("a"))).code).toBe(ErrorCode.OBJECT_READ_FAILED);
    expect((await nereusRejectionOf(store.get("b"))).code).toBe(ErrorCode.OBJECT_READ_FAILED);
    expect(store.faults.size).toBe(0);
    expect(text(await store.get("b"))).toBe("2");
    store.faults.add({ op: "get", mode: "fail-before-apply", times: Number.POSITIVE_INFINITY });
    store.faults.clear();
    expect(text(await store.get("a"))).toBe("1");
  });

  it("rejects malformed rules", () => {
    const store = new InMemoryObjectStore();
    expect(() => store.faults.add({ op: "put", mode: "corrupt-read" })).toThrow(TypeError);
    expect(() => store.faults.add({ op: "get", mode: "corrupt-read", times: 0 })).toThrow(TypeError);
    expect(() => store.faults.add({ op: "get", mode: "corrupt-read", times: 1.5 })).toThrow(TypeError);
  });

  it("counts calls and bytes", async () => {
    const store = new InMemoryObjectStore();
    await store.putIfAbsent("a", bytes("12345"));
    await store.putIfAbsent("a", bytes("x"));
    await store.get("a", { offset: 1, length: 2 });
    await store.head("a");
    await store.list("");
    await store.deleteMany(["a"]);
    expect({ ...store.stats }).toEqual({
      puts: 2,
      created: 1,
      gets: 1,
      heads: 1,
      lists: 1,
      deletes: 1,
      bytesWritten: 5,
      bytesRead: 2,
    });
    store.stats.reset();
    expect(store.stats.puts).toBe(0);
  });

  it("lists in UTF-8 byte order (as AWS S3 does), not UTF-16 order", async () => {
    const store = new InMemoryObjectStore();
    for (const key of ["\uffee", "\u{1f600}", "a", "a/b"]) await store.putIfAbsent(key, bytes("x"));
    const page = await store.list("", { limit: 3 });
    expect(page.items.map((item) => item.key)).toEqual(["a", "a/b", "\uffee"]);
    expect(page.continuationToken).toBe("\uffee");
    const rest = await store.list("", { continuationToken: "\uffee" });
    expect(rest).toEqual({ items: [{ key: "\u{1f600}", size: 1, crc32c: expect.any(Number) }] });
  });

  it("copies bodies on put and on get", async () => {
    const store = new InMemoryObjectStore();
    const body = bytes("abc");
    await store.putIfAbsent("k", body);
    body[0] = 0x7a;
    const read = await store.get("k");
    read[1] = 0x7a;
    expect(text(await store.get("k"))).toBe("abc");
  });
});
