// An independent SCRAM client for tests (RFC 5802 §3 computed step by step with node:crypto): builds the
// client-first message, and from the server-first message the client-final message and the server signature it
// expects. Test-only.
import { createHash, createHmac, pbkdf2Sync } from "node:crypto";

type Hash = "sha256" | "sha512";

const hmac = (hash: Hash, key: Uint8Array, data: string): Buffer => createHmac(hash, key).update(data).digest();

/** One client side of an exchange. */
export class ScramTestClient {
  readonly hash: Hash;
  readonly user: string;
  readonly password: string;
  readonly nonce: string;
  #clientFirstBare = "";
  expectedServerFinal = "";

  /** `noncePrefix` goes in front of the server's nonce in the final message (librdkafka < 2.6.1 repeats its own). */
  readonly noncePrefix: string;

  constructor(hash: Hash, user: string, password: string, nonce = "fyko+d2lbbFgONRv9qkxdawL", noncePrefix = "") {
    this.hash = hash;
    this.user = user;
    this.password = password;
    this.nonce = nonce;
    this.noncePrefix = noncePrefix;
  }

  /** "n,,n=<user>,r=<nonce>" with the user name escaped. */
  first(): string {
    this.#clientFirstBare = `n=${this.user.replaceAll("=", "=3D").replaceAll(",", "=2C")},r=${this.nonce}`;
    return `n,,${this.#clientFirstBare}`;
  }

  /** The client-final message answering `serverFirst`; remembers the server-final it expects. */
  final(serverFirst: string): string {
    const fields = new Map(serverFirst.split(",").map((part) => [part.slice(0, 1), part.slice(2)]));
    const nonce = fields.get("r") ?? "";
    const salt = Buffer.from(fields.get("s") ?? "", "base64");
    const iterations = Number(fields.get("i"));
    const length = this.hash === "sha256" ? 32 : 64;
    const salted = pbkdf2Sync(this.password, salt, iterations, length, this.hash);
    const clientKey = hmac(this.hash, salted, "Client Key");
    const storedKey = createHash(this.hash).update(clientKey).digest();
    const withoutProof = `c=biws,r=${this.noncePrefix}${nonce}`;
    const authMessage = `${this.#clientFirstBare},${serverFirst},${withoutProof}`;
    const signature = hmac(this.hash, storedKey, authMessage);
    const proof = Buffer.from(clientKey.map((byte, index) => byte ^ signature[index]!));
    const serverSignature = hmac(this.hash, hmac(this.hash, salted, "Server Key"), authMessage);
    this.expectedServerFinal = `v=${serverSignature.toString("base64")}`;
    return `${withoutProof},p=${proof.toString("base64")}`;
  }
}
