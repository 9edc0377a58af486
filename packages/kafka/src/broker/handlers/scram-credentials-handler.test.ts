import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness } from "../../../test/broker-harness.js";
import { upsertion } from "../../../test/sasl-harness.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { ScramCredentialStore } from "../../security/sasl/scram-credential-store.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("AlterUserScramCredentials and DescribeUserScramCredentials", () => {
  test("credentials are created, described (mechanism and iterations only), replaced and deleted", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    const created = await client.request(51, 0, {
      deletions: [],
      upsertions: [upsertion("alice", 1, "a1"), upsertion("alice", 2, "a2", 8192), upsertion("bob", 2, "b")],
    });
    expect(created.results.map((result) => [result.user, result.errorCode])).toEqual([
      ["alice", 0],
      ["bob", 0],
    ]);
    const all = await client.request(50, 0, { users: null });
    expect(all.results).toEqual([
      {
        user: "alice",
        errorCode: 0,
        errorMessage: null,
        credentialInfos: [
          { mechanism: 1, iterations: 4096 },
          { mechanism: 2, iterations: 8192 },
        ],
      },
      { user: "bob", errorCode: 0, errorMessage: null, credentialInfos: [{ mechanism: 2, iterations: 4096 }] },
    ]);
    await client.request(51, 0, {
      deletions: [{ name: "alice", mechanism: 1 }],
      upsertions: [upsertion("alice", 2, "n", 5000)],
    });
    const named = await client.request(50, 0, { users: [{ name: "alice" }] });
    expect(named.results[0]?.credentialInfos).toEqual([{ mechanism: 2, iterations: 5000 }]);
    await client.request(51, 0, { deletions: [{ name: "bob", mechanism: 2 }], upsertions: [] });
    expect((await client.request(50, 0, { users: [] })).results.map((result) => result.user)).toEqual(["alice"]);
    const stored = await new ScramCredentialStore(harness.metadata, harness.cluster).user("alice");
    expect(stored?.credentials[0]?.storedKey.length).toBe(64);
    expect(JSON.stringify(stored)).not.toContain("saltedPassword");
  });

  test("Kafka's per-user errors; a refused user changes nothing while other users in the request apply", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    const response = await client.request(51, 0, {
      deletions: [
        { name: "ghost", mechanism: 1 },
        { name: "dup", mechanism: 1 },
      ],
      upsertions: [
        upsertion("dup", 1, "x"),
        { ...upsertion("weird", 1, "x"), mechanism: 7 },
        upsertion("few", 1, "x", 4000),
        { ...upsertion("many", 2, "x"), iterations: 16385 },
        { ...upsertion("short", 2, "x"), saltedPassword: new Uint8Array(32) },
        upsertion("", 2, "x"),
        upsertion("fine", 2, "x"),
      ],
    });
    expect(response.results.map((result) => [result.user, result.errorCode, result.errorMessage])).toEqual([
      ["ghost", KafkaErrorCode.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist"],
      ["dup", KafkaErrorCode.DUPLICATE_RESOURCE, "A user credential cannot be altered twice in the same request"],
      ["weird", KafkaErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism"],
      ["few", KafkaErrorCode.UNACCEPTABLE_CREDENTIAL, "Too few iterations"],
      ["many", KafkaErrorCode.UNACCEPTABLE_CREDENTIAL, "Too many iterations"],
      ["short", KafkaErrorCode.UNACCEPTABLE_CREDENTIAL, "Invalid salted password"],
      ["", KafkaErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty"],
      ["fine", 0, null],
    ]);
    const described = await client.request(50, 0, {
      users: [{ name: "fine" }, { name: "dup" }, { name: "x" }, { name: "x" }],
    });
    expect(described.results.map((result) => [result.user, result.errorCode])).toEqual([
      ["fine", 0],
      ["dup", KafkaErrorCode.RESOURCE_NOT_FOUND],
      ["x", KafkaErrorCode.DUPLICATE_RESOURCE],
    ]);
  });
});
