// The server side of SASL/PLAIN (RFC 4616) as Kafka runs it: one token `authzid NUL user NUL password`, checked
// against the broker's configured PLAIN users; the failures carry Kafka's client messages. Passwords are compared
// through their SHA-256 digests with a constant-time compare, so the time taken does not depend on where they differ.
import { createHash, timingSafeEqual } from "node:crypto";
import { failedStep, type SaslExchange, type SaslStep } from "./sasl-exchange.js";

/** The PLAIN users: name → password. */
export type PlainUsers = ReadonlyMap<string, string>;

const utf8 = new TextDecoder("utf-8", { fatal: true });
const EMPTY = new Uint8Array(0);

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** One PLAIN exchange. */
export class PlainExchange implements SaslExchange {
  readonly mechanism = "PLAIN";
  readonly #users: PlainUsers;
  #over = false;

  constructor(users: PlainUsers) {
    this.#users = users;
  }

  evaluate(token: Uint8Array): Promise<SaslStep> {
    if (this.#over) return Promise.resolve(failedStep("Authentication failed", "PLAIN exchange already over"));
    this.#over = true;
    return Promise.resolve(this.#check(token));
  }

  #check(token: Uint8Array): SaslStep {
    let text: string;
    try {
      text = utf8.decode(token);
    } catch {
      return failedStep("Invalid SASL/PLAIN response: not UTF-8", "PLAIN token is not UTF-8");
    }
    const tokens = text.split("\0");
    if (tokens.length !== 3) {
      const message = `Invalid SASL/PLAIN response: expected 3 tokens, got ${String(tokens.length)}`;
      return failedStep(message, message);
    }
    const [authorizationId, userName, password] = tokens as [string, string, string];
    if (userName.length === 0) return failedStep("Authentication failed: username not specified", "no user name");
    if (password.length === 0) {
      return failedStep("Authentication failed: password not specified", "no password", userName);
    }
    const expected = this.#users.get(userName);
    // A user that does not exist is compared against a digest too, so both cases take the same time.
    const matches = timingSafeEqual(digest(password), digest(expected ?? "\0unknown user\0"));
    if (expected === undefined || !matches) {
      return failedStep(
        "Authentication failed: Invalid username or password",
        "invalid username or password",
        userName,
      );
    }
    if (authorizationId.length > 0 && authorizationId !== userName) {
      return failedStep(
        "Authentication failed: Client requested an authorization id that is different from username",
        "authorization id differs from the user name",
        userName,
      );
    }
    return { kind: "complete", token: EMPTY, userName };
  }
}
