// Test support for SASL: clients on a SASL_PLAINTEXT connection of a BrokerHarness broker, PLAIN and SCRAM
// logins over SaslHandshake v1 + SaslAuthenticate, and SCRAM credential upserts as a client derives them. Test-only.
import { pbkdf2Sync, randomBytes } from "node:crypto";
import type { ConnectionTransport } from "../src/security/connection-transport.js";
import type { ResponseBody } from "../src/protocol/supported-apis.js";
import type { ScramCredentialUpsertion } from "../src/protocol/apis/alter-user-scram-credentials/alter-user-scram-credentials-request.js";
import { type BrokerHarness, TestClient } from "./broker-harness.js";
import { ScramTestClient } from "./scram-client.js";

export const SASL_TRANSPORT: ConnectionTransport = { listenerName: "SASL", securityProtocol: "SASL_PLAINTEXT" };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A client on a new SASL_PLAINTEXT connection. */
export function saslClient(harness: BrokerHarness): TestClient {
  return new TestClient(harness.broker.openConnection("10.0.0.7:5000", SASL_TRANSPORT));
}

/** PLAIN login; resolves with the SaslAuthenticate response. */
export async function plainLogin(client: TestClient, user: string, password: string): Promise<ResponseBody<36>> {
  const handshake = await client.request(17, 1, { mechanism: "PLAIN" });
  if (handshake.errorCode !== 0) throw new Error(`handshake refused: ${String(handshake.errorCode)}`);
  return client.request(36, 2, { authBytes: encoder.encode(`\0${user}\0${password}`) });
}

/** SCRAM login; resolves with the last SaslAuthenticate response (and checks the server signature on success). */
export async function scramLogin(
  client: TestClient,
  mechanism: "SCRAM-SHA-256" | "SCRAM-SHA-512",
  user: string,
  password: string,
): Promise<ResponseBody<36>> {
  const scram = new ScramTestClient(mechanism === "SCRAM-SHA-256" ? "sha256" : "sha512", user, password);
  const handshake = await client.request(17, 1, { mechanism });
  if (handshake.errorCode !== 0) throw new Error(`handshake refused: ${String(handshake.errorCode)}`);
  const first = await client.request(36, 2, { authBytes: encoder.encode(scram.first()) });
  if (first.errorCode !== 0) return first;
  const final = await client.request(36, 2, {
    authBytes: encoder.encode(scram.final(decoder.decode(first.authBytes))),
  });
  if (final.errorCode === 0 && decoder.decode(final.authBytes) !== scram.expectedServerFinal) {
    throw new Error("server signature does not match");
  }
  return final;
}

/** An AlterUserScramCredentials upsertion for `password`, salted as a client does. */
export function upsertion(
  name: string,
  mechanism: 1 | 2,
  password: string,
  iterations = 4096,
): ScramCredentialUpsertion {
  const salt = randomBytes(16);
  const hash = mechanism === 1 ? "sha256" : "sha512";
  const saltedPassword = pbkdf2Sync(password, salt, iterations, mechanism === 1 ? 32 : 64, hash);
  return { name, mechanism, iterations, salt, saltedPassword };
}
