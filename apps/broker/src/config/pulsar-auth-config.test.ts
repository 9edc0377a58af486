import { describe, expect, test } from "vitest";
import { BrokerConfigSchema } from "./broker-config.js";
import { redactSecrets } from "./secret-fields.js";

function parse(auth: Record<string, unknown>) {
  return BrokerConfigSchema.safeParse({ pulsar: { auth } });
}

describe("pulsar.auth", () => {
  test("off by default, with Pulsar's defaults", () => {
    const config = BrokerConfigSchema.parse({});
    expect(config.pulsar.auth).toEqual({
      authenticationEnabled: false,
      tokenPublicAlg: "RS256",
      tokenAuthClaim: "sub",
      tokenAudienceClaim: "aud",
      tokenAllowedClockSkewSeconds: 0,
      authenticationRefreshCheckSeconds: 60,
      authorizationEnabled: false,
      superUserRoles: [],
    });
  });

  test("authentication needs exactly one key; authorization needs authentication; the base64 key is checked", () => {
    expect(parse({ authenticationEnabled: true }).success).toBe(false);
    expect(parse({ authenticationEnabled: true, tokenSecretKeyFile: "/k", tokenPublicKeyFile: "/p" }).success).toBe(
      false,
    );
    expect(parse({ authenticationEnabled: true, tokenPublicKeyFile: "/p", tokenPublicAlg: "HS256" }).success).toBe(
      false,
    );
    expect(parse({ authorizationEnabled: true, tokenSecretKeyFile: "/k" }).success).toBe(false);
    expect(parse({ authenticationEnabled: true, tokenSecretKey: "not base64!" }).success).toBe(false);
    const ok = parse({
      authenticationEnabled: true,
      authorizationEnabled: true,
      tokenPublicKeyFile: "/etc/pulsar/public.key",
      tokenPublicAlg: "ES256",
      superUserRoles: ["admin"],
    });
    expect(ok.success).toBe(true);
  });

  test("the base64 secret key is redacted; key file paths are not secret", () => {
    const config = BrokerConfigSchema.parse({
      pulsar: {
        auth: { authenticationEnabled: true, tokenSecretKey: "c2VjcmV0LWtleS1ieXRlcy1mb3ItdGVzdHMtb25seS0xMjM0" },
      },
    });
    const shown = JSON.stringify(redactSecrets(config));
    expect(shown).not.toContain("c2VjcmV0");
    const withFile = BrokerConfigSchema.parse({
      pulsar: { auth: { authenticationEnabled: true, tokenPublicKeyFile: "/etc/pulsar/public.key" } },
    });
    expect(JSON.stringify(redactSecrets(withFile))).toContain("/etc/pulsar/public.key");
  });
});
