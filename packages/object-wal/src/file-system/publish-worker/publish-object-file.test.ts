import fs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ObjectFilePublisher } from "./publish-object-file.js";
import { SharedBodies } from "./shared-bodies.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("ObjectFilePublisher (on this thread)", () => {
  let directory = "";
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("publishes header + body under a new directory, create-only, and leaves no temp file", async () => {
    directory = await mkdtemp(path.join(tmpdir(), "nereus-publish-object-"));
    const publisher = new ObjectFilePublisher(new SharedBodies());
    const target = path.join(directory, "a", "b", "object");
    const job = (body: string) => ({
      temporary: path.join(directory, `tmp-${body}`),
      target,
      header: bytes("H"),
      body: bytes(body),
      fsync: true,
    });
    expect(publisher.publish(job("first"))).toEqual({ kind: "published", created: true });
    expect(publisher.publish(job("second"))).toEqual({ kind: "published", created: false });
    expect(fs.readFileSync(target, "utf8")).toBe("Hfirst");
    expect(fs.readdirSync(directory).sort()).toEqual(["a"]);
  });

  it("writes a registered shared body and refuses one it was never given", async () => {
    directory = await mkdtemp(path.join(tmpdir(), "nereus-publish-object-"));
    const publisher = new ObjectFilePublisher(new SharedBodies());
    const shared = new SharedArrayBuffer(8);
    new Uint8Array(shared).set(bytes("HBODY"));
    const base = { header: new Uint8Array(0), body: new Uint8Array(0), fsync: false };
    publisher.publish({
      ...base,
      temporary: path.join(directory, "t1"),
      target: path.join(directory, "one"),
      memory: { id: 7, buffer: shared, length: 5 },
    });
    expect(fs.readFileSync(path.join(directory, "one"), "utf8")).toBe("HBODY");
    expect(() =>
      publisher.publish({
        ...base,
        temporary: path.join(directory, "t2"),
        target: path.join(directory, "two"),
        memory: { id: 8, length: 5 },
      }),
    ).toThrow(/never registered/);
  });
});
