import { fromHex, toHex } from "@nereus/core";
import { describe, expect, test } from "vitest";
import { expectCorruptionRejected, violation } from "../../../test/record-codec-checks.js";
import { ScramCredentialKeys } from "./scram-credential-keys.js";
import { scramMechanismOfType } from "./scram-mechanism.js";
import { type ScramUser, scramUserCodec } from "./scram-user-record-codec.js";

const keys = new ScramCredentialKeys("test");
const codec = scramUserCodec(keys);
const KEY = keys.userKey("alice");
const SHA256 = scramMechanismOfType(1)!;
const SHA512 = scramMechanismOfType(2)!;

const FIXTURE: ScramUser = {
  userName: "alice",
  credentials: [
    {
      mechanism: SHA256,
      iterations: 4096,
      salt: fromHex("0102"),
      storedKey: new Uint8Array(32).fill(0x11),
      serverKey: new Uint8Array(32).fill(0x22),
    },
    {
      mechanism: SHA512,
      iterations: 16384,
      salt: fromHex("aabbcc"),
      storedKey: new Uint8Array(64).fill(0x33),
      serverKey: new Uint8Array(64).fill(0x44),
    },
  ],
};

// The payload composed by hand from the layout in the codec's header comment.
const PAYLOAD = [
  "00000005" + "616c696365", // userName "alice"
  "02", // credentialCount
  "01" + "00001000" + "00000002" + "0102", // SCRAM-SHA-256, 4096 iterations, salt
  "00000020" + "11".repeat(32) + "00000020" + "22".repeat(32),
  "02" + "00004000" + "00000003" + "aabbcc", // SCRAM-SHA-512, 16384 iterations, salt
  "00000040" + "33".repeat(64) + "00000040" + "44".repeat(64),
].join("");
// The NRM1 envelope (record type, schema 1, payload length and CRC) frozen from the first encoding.
const GOLDEN = `4e524d310000000e4b61666b61536372616d557365720001000101000000f1179e89bc${PAYLOAD}`;

describe("scramUserCodec", () => {
  test("golden bytes: the payload is the documented layout; decoding restores the record", () => {
    expect(toHex(codec.encode(FIXTURE))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), KEY)).toEqual(FIXTURE);
  });

  test("every truncation and bit flip is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, KEY));
  });

  test("refuses another user's key, keys of the wrong length, unsorted or repeated mechanisms, bad iterations", () => {
    expect(violation(() => codec.decode(fromHex(GOLDEN), keys.userKey("bob"))).message).toMatch(/not the key's user/);
    const [first, second] = FIXTURE.credentials as [ScramUser["credentials"][0], ScramUser["credentials"][0]];
    const bad: ScramUser[] = [
      { userName: "alice", credentials: [second, first] },
      { userName: "alice", credentials: [first, first] },
      { userName: "alice", credentials: [{ ...first, storedKey: new Uint8Array(31) }] },
      { userName: "alice", credentials: [{ ...first, serverKey: new Uint8Array(64) }] },
      { userName: "alice", credentials: [{ ...first, iterations: 4095 }] },
      { userName: "alice", credentials: [{ ...first, iterations: 16385 }] },
      { userName: "alice", credentials: [{ ...first, salt: new Uint8Array(0) }] },
      { userName: "", credentials: [first] },
    ];
    for (const user of bad) violation(() => codec.encode(user));
  });
});
