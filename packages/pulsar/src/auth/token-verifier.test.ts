// The token verifier against tokens signed by jose: HS256 with the secret key, RS256 and ES256 with a public key
// (PEM and DER), the role claim, `exp`/`nbf` with clock skew, the audience, and the tokens it must refuse — another
// key, another algorithm family, `alg: none`, a tampered payload, no role, oversized or malformed input.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { NereusError } from "@nereus/core";
import { SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, test } from "vitest";
import { PulsarAuthRefusal } from "./auth-refusal.js";
import { MAX_TOKEN_BYTES, createTokenVerifier } from "./token-verifier.js";

const NOW_MS = 1_800_000_000_000;
const clock = (): number => NOW_MS;
const secret = randomBytes(32);
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });

function jwt(claims: Record<string, unknown>): SignJWT {
  return new SignJWT(claims).setIssuedAt(NOW_MS / 1_000 - 10);
}

async function hs256(claims: Record<string, unknown>, key: Uint8Array = secret): Promise<string> {
  return jwt(claims).setProtectedHeader({ alg: "HS256" }).sign(key);
}

async function refusal(promise: Promise<unknown>): Promise<PulsarAuthRefusal> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PulsarAuthRefusal);
  expect((error as PulsarAuthRefusal).kind).toBe("authentication");
  return error as PulsarAuthRefusal;
}

describe("createTokenVerifier with a secret key", () => {
  const verifier = createTokenVerifier({ key: { kind: "secret", bytes: secret }, clock });

  test("an HS256 token gives its sub claim as the role and its exp as the expiry", async () => {
    const token = await jwt({ sub: "alice" })
      .setExpirationTime(NOW_MS / 1_000 + 60)
      .setProtectedHeader({ alg: "HS256" })
      .sign(secret);
    expect(await verifier.verify(token)).toEqual({ role: "alice", expiresAtMillis: NOW_MS + 60_000 });
    expect(await verifier.verify(await hs256({ sub: "bob" }))).toEqual({ role: "bob", expiresAtMillis: undefined });
  });

  test("an expired token, one not valid yet, one signed with another secret or tampered with is refused", async () => {
    const expired = await jwt({ sub: "alice" })
      .setExpirationTime(NOW_MS / 1_000 - 1)
      .setProtectedHeader({ alg: "HS256" })
      .sign(secret);
    expect((await refusal(verifier.verify(expired))).message).toContain("expired");
    const early = await jwt({ sub: "alice" })
      .setNotBefore(NOW_MS / 1_000 + 60)
      .setProtectedHeader({ alg: "HS256" })
      .sign(secret);
    await refusal(verifier.verify(early));
    const other = await hs256({ sub: "alice" }, randomBytes(32));
    expect((await refusal(verifier.verify(other))).message).toContain("signature");
    const [header, , signature] = (await hs256({ sub: "alice" })).split(".");
    const forged = Buffer.from(JSON.stringify({ sub: "root" })).toString("base64url");
    await refusal(verifier.verify(`${header!}.${forged}.${signature!}`));
  });

  test("an unsigned (alg none) token and one signed with an RSA key are refused", async () => {
    const unsigned = new UnsecuredJWT({ sub: "root" }).encode();
    await refusal(verifier.verify(unsigned));
    const rs256 = await jwt({ sub: "root" }).setProtectedHeader({ alg: "RS256" }).sign(rsa.privateKey);
    expect((await refusal(verifier.verify(rs256))).message).toContain("algorithm");
  });

  test("a token without the role claim, malformed text and oversized input are refused without echoing them", async () => {
    expect((await refusal(verifier.verify(await hs256({ name: "x" })))).message).toContain("no sub claim");
    expect((await refusal(verifier.verify(await hs256({ sub: "" })))).message).toContain("no sub claim");
    const garbage = "not-a-token-secret-garbage";
    expect((await refusal(verifier.verify(garbage))).message).not.toContain(garbage);
    expect((await refusal(verifier.verify("a".repeat(MAX_TOKEN_BYTES + 1)))).message).toContain("longer than");
  });

  test("clock skew tolerates a token expired a moment ago", async () => {
    const lenient = createTokenVerifier({ key: { kind: "secret", bytes: secret }, clock, clockSkewSeconds: 30 });
    const token = await jwt({ sub: "alice" })
      .setExpirationTime(NOW_MS / 1_000 - 10)
      .setProtectedHeader({ alg: "HS256" })
      .sign(secret);
    expect((await lenient.verify(token)).role).toBe("alice");
  });

  test("a configured role claim and audience are required", async () => {
    const strict = createTokenVerifier({
      key: { kind: "secret", bytes: secret },
      clock,
      roleClaim: "principal",
      audience: "nereus",
    });
    expect(await strict.verify(await hs256({ principal: "carol", aud: "nereus" }))).toEqual({
      role: "carol",
      expiresAtMillis: undefined,
    });
    expect((await strict.verify(await hs256({ principal: "carol", aud: ["other", "nereus"] }))).role).toBe("carol");
    await refusal(strict.verify(await hs256({ principal: "carol", aud: "other" })));
    await refusal(strict.verify(await hs256({ principal: "carol" })));
    await refusal(strict.verify(await hs256({ sub: "carol", aud: "nereus" })));
    const custom = createTokenVerifier({
      key: { kind: "secret", bytes: secret },
      clock,
      audienceClaim: "scope",
      audience: "pulsar",
    });
    expect((await custom.verify(await hs256({ sub: "dan", scope: "pulsar" }))).role).toBe("dan");
    await refusal(custom.verify(await hs256({ sub: "dan", aud: "pulsar" })));
  });
});

describe("createTokenVerifier with a public key", () => {
  test("RS256 tokens verify against the PEM and the DER public key; other keys and algorithms do not", async () => {
    const pem = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
    const der = rsa.publicKey.export({ type: "spki", format: "der" });
    const token = await jwt({ sub: "alice" }).setProtectedHeader({ alg: "RS256" }).sign(rsa.privateKey);
    for (const key of [pem, new Uint8Array(der)]) {
      const verifier = createTokenVerifier({ key: { kind: "public", key }, clock });
      expect((await verifier.verify(token)).role).toBe("alice");
    }
    const verifier = createTokenVerifier({ key: { kind: "public", key: pem }, clock });
    const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    await refusal(verifier.verify(await jwt({ sub: "alice" }).setProtectedHeader({ alg: "RS256" }).sign(otherKey)));
    await refusal(
      verifier.verify(await jwt({ sub: "alice" }).setProtectedHeader({ alg: "RS512" }).sign(rsa.privateKey)),
    );
    // The public key's bytes used as an HMAC secret (the classic algorithm confusion) are refused.
    await refusal(verifier.verify(await hs256({ sub: "root" }, new TextEncoder().encode(pem))));
    await refusal(verifier.verify(new UnsecuredJWT({ sub: "root" }).encode()));
  });

  test("ES256 with an EC key", async () => {
    const pem = ec.publicKey.export({ type: "spki", format: "pem" }).toString();
    const verifier = createTokenVerifier({ key: { kind: "public", key: pem, algorithm: "ES256" }, clock });
    const token = await jwt({ sub: "eve" }).setProtectedHeader({ alg: "ES256" }).sign(ec.privateKey);
    expect((await verifier.verify(token)).role).toBe("eve");
  });

  test("unusable keys and options are refused when the verifier is created", () => {
    const pem = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();
    const bad = [
      () => createTokenVerifier({ key: { kind: "secret", bytes: randomBytes(16) } }),
      () => createTokenVerifier({ key: { kind: "public", key: "not a key" } }),
      () => createTokenVerifier({ key: { kind: "public", key: pem, algorithm: "ES256" } }),
      () => createTokenVerifier({ key: { kind: "secret", bytes: secret }, roleClaim: "" }),
      () => createTokenVerifier({ key: { kind: "secret", bytes: secret }, clockSkewSeconds: -1 }),
    ];
    for (const create of bad) expect(create).toThrow(NereusError);
  });
});
