import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { afterAll, describe, expect, test } from "vitest";
import { BrokerConfigSchema } from "../config/broker-config.js";
import { ConfigError } from "../config/config-error.js";
import { loadPulsarAuth } from "./load-pulsar-auth.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "nereus-pulsar-auth-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function settings(auth: Record<string, unknown>) {
  return BrokerConfigSchema.parse({ pulsar: { auth } }).pulsar.auth;
}

describe("loadPulsarAuth", () => {
  test("off: no auth options", async () => {
    expect(await loadPulsarAuth(settings({}))).toBeUndefined();
  });

  test("a raw secret key file and a base64 key verify tokens signed with that key", async () => {
    const secret = randomBytes(32);
    const file = path.join(dir, "secret.key");
    writeFileSync(file, secret);
    const token = await new SignJWT({ sub: "alice" }).setProtectedHeader({ alg: "HS256" }).sign(secret);
    for (const key of [{ tokenSecretKeyFile: file }, { tokenSecretKey: secret.toString("base64") }]) {
      const options = await loadPulsarAuth(
        settings({ authenticationEnabled: true, authorizationEnabled: true, superUserRoles: ["admin"], ...key }),
      );
      expect(await options?.authentication?.verifier.verify(token)).toEqual({
        role: "alice",
        expiresAtMillis: undefined,
      });
      expect(options?.authorization).toEqual({ superUserRoles: ["admin"] });
      expect(options?.authentication?.refreshCheckMs).toBe(60_000);
    }
  });

  test("a public key file in PEM or DER verifies RS256 tokens", async () => {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const token = await new SignJWT({ sub: "bob" }).setProtectedHeader({ alg: "RS256" }).sign(privateKey);
    const pem = path.join(dir, "public.pem");
    const der = path.join(dir, "public.der");
    writeFileSync(pem, publicKey.export({ type: "spki", format: "pem" }));
    writeFileSync(der, publicKey.export({ type: "spki", format: "der" }));
    for (const file of [pem, der]) {
      const options = await loadPulsarAuth(settings({ authenticationEnabled: true, tokenPublicKeyFile: file }));
      expect((await options?.authentication?.verifier.verify(token))?.role).toBe("bob");
    }
  });

  test("an unreadable file or an unusable key is a ConfigError naming the setting, never the key", async () => {
    const missing = loadPulsarAuth(
      settings({ authenticationEnabled: true, tokenSecretKeyFile: path.join(dir, "none") }),
    );
    await expect(missing).rejects.toThrow(ConfigError);
    await expect(missing).rejects.toThrow(/pulsar\.auth\.tokenSecretKeyFile: cannot read .*ENOENT/);
    const short = randomBytes(8).toString("base64");
    const shortKey = loadPulsarAuth(settings({ authenticationEnabled: true, tokenSecretKey: short }));
    await expect(shortKey).rejects.toThrow(/at least 32 bytes/);
    await expect(shortKey).rejects.not.toThrow(short);
    const notAKey = path.join(dir, "garbage.pem");
    writeFileSync(notAKey, "-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----\n");
    await expect(
      loadPulsarAuth(settings({ authenticationEnabled: true, tokenPublicKeyFile: notAKey })),
    ).rejects.toThrow(ConfigError);
  });
});
