import { InMemoryMetadataStore } from "@nereus/core/testing";
import { describe, expect, test } from "vitest";
import { bootstrapScramUsers } from "./bootstrap-scram-users.js";
import { ScramCredentialStore } from "./scram-credential-store.js";
import { scramMechanismNamed } from "./scram-mechanism.js";

describe("bootstrapScramUsers", () => {
  test("creates missing credentials only: a restart does not reset a credential that exists", async () => {
    const metadata = new InMemoryMetadataStore();
    const users = [
      { name: "admin", password: "pw", mechanism: "SCRAM-SHA-512" as const },
      { name: "admin", password: "pw", mechanism: "SCRAM-SHA-256" as const, iterations: 4096 },
    ];
    expect(await bootstrapScramUsers(metadata, "c", users)).toEqual(["admin/SCRAM-SHA-512", "admin/SCRAM-SHA-256"]);
    const store = new ScramCredentialStore(metadata, "c");
    const before = await store.user("admin");
    expect(before?.credentials.map((credential) => [credential.mechanism.name, credential.iterations])).toEqual([
      ["SCRAM-SHA-256", 4096],
      ["SCRAM-SHA-512", 8192],
    ]);
    expect(await bootstrapScramUsers(metadata, "c", [{ ...users[0]!, password: "changed" }])).toEqual([]);
    expect(await store.user("admin")).toEqual(before);
    const sha512 = scramMechanismNamed("SCRAM-SHA-512")!;
    expect(await store.change({ userName: "admin", deletions: [sha512], upsertions: [] })).toEqual({ ok: true });
    expect(await store.change({ userName: "admin", deletions: [sha512], upsertions: [] })).toEqual({
      ok: false,
      missing: sha512,
    });
  });

  test("refuses iterations out of bounds and empty passwords before writing anything", async () => {
    const metadata = new InMemoryMetadataStore();
    const good = { name: "a", password: "p", mechanism: "SCRAM-SHA-256" as const };
    await expect(bootstrapScramUsers(metadata, "c", [good, { ...good, iterations: 100 }])).rejects.toThrow(
      /iterations/,
    );
    await expect(bootstrapScramUsers(metadata, "c", [good, { ...good, password: "" }])).rejects.toThrow(/password/);
    expect(await new ScramCredentialStore(metadata, "c").list()).toEqual([]);
  });
});
