import type http from "node:http";
import { describe, expect, test } from "vitest";
import { AdminAuthConfigSchema } from "../config/admin-auth-config.js";
import { adminPrincipalOf, createAdminAuthenticator, rememberAdminPrincipal } from "./admin-auth.js";

function request(authorization?: string): http.IncomingMessage {
  return { headers: authorization === undefined ? {} : { authorization }, socket: {} } as http.IncomingMessage;
}

const OPS = "ops-token-0123456789abcdef";
const CI = "ci-token-abcdef0123456789xx";

describe("the admin auth gate", () => {
  test("without a configured credential everyone is the anonymous principal", () => {
    const gate = createAdminAuthenticator(AdminAuthConfigSchema.parse({}));
    expect(gate.authenticate(request())).toEqual({ ok: true, principal: { name: "anonymous", via: "anonymous" } });
    expect(gate.isPublic("/healthz")).toBe(true);
    expect(gate.isPublic("/admin/v1/topics")).toBe(false);
  });

  test("a configured token authenticates as its name; anything else is refused with a challenge", () => {
    const gate = createAdminAuthenticator(
      AdminAuthConfigSchema.parse({ tokens: [{ name: "ci", secret: CI }], tokenSecret: OPS }),
    );
    expect(gate.authenticate(request(`Bearer ${OPS}`))).toEqual({
      ok: true,
      principal: { name: "admin", via: "token" },
    });
    expect(gate.authenticate(request(`bearer   ${CI}`))).toEqual({ ok: true, principal: { name: "ci", via: "token" } });
    for (const header of [undefined, `Basic ${OPS}`, "Bearer", `Bearer ${OPS} extra`]) {
      const outcome = gate.authenticate(request(header));
      expect(outcome).toMatchObject({ ok: false, challenge: 'Bearer realm="nereus-admin"' });
    }
    for (const wrong of [`Bearer ${OPS.slice(0, -1)}`, `Bearer ${OPS}x`, `Bearer ${CI.toUpperCase()}`]) {
      const outcome = gate.authenticate(request(wrong));
      expect(outcome).toEqual({
        ok: false,
        challenge: 'Bearer realm="nereus-admin", error="invalid_token"',
        reason: "the bearer token is not valid",
      });
    }
  });

  test("a certificate is not a credential on a plain socket, and public paths are exact", () => {
    const gate = createAdminAuthenticator(
      AdminAuthConfigSchema.parse({ clientCertificates: true, publicPaths: ["/healthz"] }),
    );
    expect(gate.authenticate(request()).ok).toBe(false);
    expect(gate.isPublic("/healthz")).toBe(true);
    expect(gate.isPublic("/healthz/")).toBe(false);
    expect(gate.isPublic("/metrics")).toBe(false);
  });

  test("routes read the principal the gate admitted a request as", () => {
    const admitted = request(`Bearer ${OPS}`);
    expect(adminPrincipalOf(admitted)).toEqual({ name: "anonymous", via: "anonymous" });
    rememberAdminPrincipal(admitted, { name: "ci", via: "token" });
    expect(adminPrincipalOf(admitted)).toEqual({ name: "ci", via: "token" });
  });
});
