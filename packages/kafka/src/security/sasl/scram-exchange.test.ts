import { describe, expect, test } from "vitest";
import { ScramTestClient } from "../../../test/scram-client.js";
import type { SaslStep } from "./sasl-exchange.js";
import { credentialFromPassword, type ScramCredential } from "./scram-credential.js";
import { ScramExchange, scramFailureMessage } from "./scram-exchange.js";
import { type ScramMechanism, scramMechanismNamed } from "./scram-mechanism.js";

const SHA256 = scramMechanismNamed("SCRAM-SHA-256")!;
const SHA512 = scramMechanismNamed("SCRAM-SHA-512")!;
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (step: SaslStep): string => {
  if (step.kind === "failed") throw new Error(`exchange failed: ${step.reason}`);
  return new TextDecoder().decode(step.token);
};

function exchangeFor(
  mechanism: ScramMechanism,
  users: Record<string, ScramCredential>,
  serverNonce?: () => string,
): ScramExchange {
  return new ScramExchange(
    mechanism,
    (asked, user) => {
      expect(asked).toBe(mechanism);
      return Promise.resolve(users[user]);
    },
    serverNonce,
  );
}

describe("ScramExchange", () => {
  test("RFC 7677 test vector: the server's first and final messages are the RFC's, byte for byte", async () => {
    const credential = credentialFromPassword(
      SHA256,
      "pencil",
      4096,
      Buffer.from("W22ZaJ0SNY7soEsUEjb6gQ==", "base64"),
    );
    const exchange = exchangeFor(SHA256, { user: credential }, () => "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
    const first = await exchange.evaluate(utf8("n,,n=user,r=rOprNGfwEbeRWgbNEkqO"));
    expect(first.kind).toBe("challenge");
    expect(text(first)).toBe("r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096");
    const final = await exchange.evaluate(
      utf8(
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
      ),
    );
    expect(final).toMatchObject({ kind: "complete", userName: "user" });
    expect(text(final)).toBe("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
  });

  test.each([SHA256, SHA512])(
    "$name: a client that knows the password completes, and its server signature checks",
    async (mechanism) => {
      const credential = credentialFromPassword(mechanism, "s3cr3t,=ü", 8192);
      const exchange = exchangeFor(mechanism, { "al,ice=": credential });
      const client = new ScramTestClient(mechanism.hash, "al,ice=", "s3cr3t,=ü");
      const serverFirst = text(await exchange.evaluate(utf8(client.first())));
      expect(serverFirst.startsWith(`r=${client.nonce}`)).toBe(true);
      expect(serverFirst.slice(client.nonce.length + 2)).toMatch(/^[A-Za-z0-9_-]{32},s=[A-Za-z0-9+/]{43}=,i=8192$/);
      const final = await exchange.evaluate(utf8(client.final(serverFirst)));
      expect(final).toMatchObject({ kind: "complete", userName: "al,ice=" });
      expect(text(final)).toBe(client.expectedServerFinal);
    },
  );

  test("a wrong password fails at the proof with Kafka's message; the exchange is then over", async () => {
    const exchange = exchangeFor(SHA512, { alice: credentialFromPassword(SHA512, "right", 4096) });
    const client = new ScramTestClient("sha512", "alice", "wrong");
    const serverFirst = text(await exchange.evaluate(utf8(client.first())));
    const final = await exchange.evaluate(utf8(client.final(serverFirst)));
    expect(final).toEqual({
      kind: "failed",
      clientMessage:
        "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512",
      reason: "invalid client proof",
      userName: "alice",
    });
    expect((await exchange.evaluate(utf8(client.first()))).kind).toBe("failed");
  });

  test("an unknown user gets a stable salt and fails only at the proof, with the same message", async () => {
    const salts: string[] = [];
    for (let round = 0; round < 2; round += 1) {
      const exchange = exchangeFor(SHA256, {});
      const client = new ScramTestClient("sha256", "mallory", "guess");
      const serverFirst = text(await exchange.evaluate(utf8(client.first())));
      salts.push(serverFirst.split(",")[1]!);
      expect(serverFirst).toMatch(/,i=4096$/);
      const final = await exchange.evaluate(utf8(client.final(serverFirst)));
      expect(final).toMatchObject({ kind: "failed", clientMessage: scramFailureMessage(SHA256), userName: "mallory" });
    }
    expect(salts[0]).toBe(salts[1]);
  });

  test("the final message must echo the server's nonce and the gs2 header", async () => {
    const credential = credentialFromPassword(SHA256, "pw", 4096);
    for (const tamper of [
      (final: string) => final.replace(/r=([^,]*)/, "r=$1x"),
      (final: string) => final.replace(/r=fyko/, "r=fykO"),
      (final: string) => final.replace("c=biws", "c=eSws"),
    ]) {
      const exchange = exchangeFor(SHA256, { bob: credential });
      const client = new ScramTestClient("sha256", "bob", "pw");
      const serverFirst = text(await exchange.evaluate(utf8(client.first())));
      const final = await exchange.evaluate(utf8(tamper(client.final(serverFirst))));
      expect(final.kind).toBe("failed");
    }
  });

  test("librdkafka before 2.6.1 repeats its client nonce in front of the server's: accepted, any other prefix is not", async () => {
    const credential = credentialFromPassword(SHA512, "pw", 4096);
    const librdkafka = new ScramTestClient("sha512", "bob", "pw", "cn0nce", "cn0nce");
    const exchange = exchangeFor(SHA512, { bob: credential });
    const serverFirst = text(await exchange.evaluate(utf8(librdkafka.first())));
    const final = await exchange.evaluate(utf8(librdkafka.final(serverFirst)));
    expect(final.kind).toBe("complete");
    expect(text(final)).toBe(librdkafka.expectedServerFinal);
    for (const prefix of ["cn0ncecn0nce", "x", "cn0nc"]) {
      const other = exchangeFor(SHA512, { bob: credential });
      const client = new ScramTestClient("sha512", "bob", "pw", "cn0nce", prefix);
      const first = text(await other.evaluate(utf8(client.first())));
      expect((await other.evaluate(utf8(client.final(first)))).kind, prefix).toBe("failed");
    }
  });

  test("malformed messages, channel binding, a foreign authorization id and delegation tokens are refused", async () => {
    const credential = credentialFromPassword(SHA256, "pw", 4096);
    const refused = [
      "",
      "n,,",
      "p=tls-unique,,n=bob,r=abc",
      "x,,n=bob,r=abc",
      "n,,n=,r=abc",
      "n,,n=b=ob,r=abc",
      "n,,n=bob,r=",
      "n,,n=bob,r=a,b",
      "n,,m=ext,n=bob,r=abc",
      "n,,n=bob",
      "n,,n=bob,r=abc,tokenauth=true",
    ];
    for (const message of refused) {
      const step = await exchangeFor(SHA256, { bob: credential }).evaluate(utf8(message));
      expect(step.kind, message).toBe("failed");
    }
    const invalidUtf8 = await exchangeFor(SHA256, { bob: credential }).evaluate(new Uint8Array([0x6e, 0x2c, 0xff]));
    expect(invalidUtf8.kind).toBe("failed");
    const foreign = await exchangeFor(SHA256, { bob: credential }).evaluate(utf8("n,a=admin,n=bob,r=abc"));
    expect(foreign).toMatchObject({
      kind: "failed",
      clientMessage: "Authentication failed: Client requested an authorization id that is different from username",
    });
    const own = await exchangeFor(SHA256, { bob: credential }).evaluate(utf8("n,a=bob,n=bob,r=abc,ext=1"));
    expect(own.kind).toBe("challenge");
  });
});
