// Start-up step of Pulsar authentication: reads the token key `pulsar.auth` names (a secret key file's raw bytes, the
// base64 secret key, or a public key file in PEM or DER) and builds the broker's auth options. A key that cannot be
// read or used stops the start-up with a ConfigError naming the setting (never the key's bytes).
import { readFile } from "node:fs/promises";
import { type PulsarAuthOptions, type TokenKey, createTokenVerifier } from "@nereus/pulsar";
import { ConfigError } from "../config/config-error.js";
import type { PulsarAuthConfig } from "../config/pulsar-auth-config.js";

/** The Pulsar broker's auth options of `config` (undefined while authentication is off). */
export async function loadPulsarAuth(config: PulsarAuthConfig): Promise<PulsarAuthOptions | undefined> {
  if (!config.authenticationEnabled) return undefined;
  const key = await tokenKeyOf(config);
  let verifier;
  try {
    verifier = createTokenVerifier({
      key,
      roleClaim: config.tokenAuthClaim,
      audienceClaim: config.tokenAudienceClaim,
      ...(config.tokenAudience === undefined ? {} : { audience: config.tokenAudience }),
      clockSkewSeconds: config.tokenAllowedClockSkewSeconds,
    });
  } catch (error) {
    throw new ConfigError(`pulsar.auth: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    authentication: {
      verifier,
      refreshCheckMs: config.authenticationRefreshCheckSeconds * 1_000,
      ...(config.anonymousUserRole === undefined ? {} : { anonymousRole: config.anonymousUserRole }),
    },
    ...(config.authorizationEnabled ? { authorization: { superUserRoles: config.superUserRoles } } : {}),
  };
}

async function tokenKeyOf(config: PulsarAuthConfig): Promise<TokenKey> {
  if (config.tokenSecretKey !== undefined) {
    return { kind: "secret", bytes: Buffer.from(config.tokenSecretKey, "base64") };
  }
  if (config.tokenSecretKeyFile !== undefined) {
    return { kind: "secret", bytes: await read("tokenSecretKeyFile", config.tokenSecretKeyFile) };
  }
  const bytes = await read("tokenPublicKeyFile", config.tokenPublicKeyFile ?? "");
  const pem = bytes.toString("latin1").trimStart().startsWith("-----BEGIN");
  return {
    kind: "public",
    key: pem ? bytes.toString("utf8") : new Uint8Array(bytes),
    algorithm: config.tokenPublicAlg,
  };
}

async function read(setting: string, path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new ConfigError(`pulsar.auth.${setting}: cannot read ${path} (${reason})`);
  }
}
