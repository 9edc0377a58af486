// The server side of a SCRAM-SHA-256 / SCRAM-SHA-512 exchange (RFC 5802 §5) as Kafka runs it: client-first →
// server-first (the client's nonce followed by a random server nonce, the credential's salt and iterations),
// client-final → server-final (`v=` server signature) once the proof matches. The proof check recomputes StoredKey
// from ClientSignature XOR ClientProof and compares it in constant time. The client-final nonce must be the
// server-first nonce; librdkafka before 2.6.1 sends its client nonce once more in front of it, which is accepted as
// Kafka 3.8.1-3.9 accept it (the server's fresh nonce is still echoed and covered by the proof). A user without a credential of this
// mechanism gets a server-first with a salt derived from a per-process secret and fails at the proof, so the
// exchange does not tell which users exist. Failures carry Kafka's generic client message.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { failedStep, type SaslExchange, type SaslStep } from "./sasl-exchange.js";
import { type ScramCredential, scramHash, scramHmac } from "./scram-credential.js";
import type { ScramMechanism } from "./scram-mechanism.js";
import {
  type ClientFirstMessage,
  formatServerFinal,
  formatServerFirst,
  parseClientFinal,
  parseClientFirst,
  ScramMessageError,
} from "./scram-messages.js";

/** Looks up the credential of `userName` for `mechanism`; undefined when the user has none. */
export type ScramCredentialLookup = (
  mechanism: ScramMechanism,
  userName: string,
  signal?: AbortSignal,
) => Promise<ScramCredential | undefined>;

/** Secret of this process for the salts of unknown users (stable per process, so a user's fake salt is too). */
const UNKNOWN_USER_SECRET = randomBytes(32);

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** The message Kafka sends a client whose SCRAM exchange failed for any credential reason. */
export function scramFailureMessage(mechanism: ScramMechanism): string {
  return `Authentication failed during authentication due to invalid credentials with SASL mechanism ${mechanism.name}`;
}

interface AwaitingFinal {
  readonly first: ClientFirstMessage;
  readonly serverFirst: string;
  readonly nonce: string;
  /** Undefined for an unknown user: the proof always fails. */
  readonly credential: ScramCredential | undefined;
}

/** One SCRAM exchange. */
export class ScramExchange implements SaslExchange {
  readonly mechanism: string;
  readonly #scram: ScramMechanism;
  readonly #lookup: ScramCredentialLookup;
  readonly #serverNonce: () => string;
  #state: "first" | AwaitingFinal | "over" = "first";

  /** `serverNonce` makes the server's part of the nonce (default: 24 random bytes, base64url). */
  constructor(mechanism: ScramMechanism, lookup: ScramCredentialLookup, serverNonce: () => string = randomNonce) {
    this.mechanism = mechanism.name;
    this.#scram = mechanism;
    this.#lookup = lookup;
    this.#serverNonce = serverNonce;
  }

  async evaluate(token: Uint8Array, signal?: AbortSignal): Promise<SaslStep> {
    const state = this.#state;
    this.#state = "over";
    try {
      if (state === "first") return await this.#first(token, signal);
      if (state === "over") return this.#fail("SCRAM exchange already over");
      return this.#final(state, token);
    } catch (error) {
      if (error instanceof ScramMessageError) return this.#fail(`invalid SCRAM message: ${error.message}`);
      throw error;
    }
  }

  async #first(token: Uint8Array, signal?: AbortSignal): Promise<SaslStep> {
    const first = parseClientFirst(token);
    const { userName } = first;
    if (first.authorizationId !== "" && first.authorizationId !== userName) {
      return failedStep(
        "Authentication failed: Client requested an authorization id that is different from username",
        "authorization id differs from the user name",
        userName,
      );
    }
    if (first.extensions.get("tokenauth") === "true") {
      return this.#fail("delegation tokens are not supported", userName);
    }
    const credential = await this.#lookup(this.#scram, userName, signal);
    const salt = credential?.salt ?? scramHmac(this.#scram, UNKNOWN_USER_SECRET, `${this.#scram.name}\0${userName}`);
    const iterations = credential?.iterations ?? this.#scram.minIterations;
    const nonce = first.clientNonce + this.#serverNonce();
    const serverFirst = formatServerFirst(nonce, salt, iterations);
    this.#state = { first, serverFirst, nonce, credential };
    return { kind: "challenge", token: encoder.encode(serverFirst) };
  }

  #final(state: AwaitingFinal, token: Uint8Array): SaslStep {
    const final = parseClientFinal(token);
    const userName = state.first.userName;
    const echoed = encoder.encode(final.nonce);
    const duplicated = encoder.encode(state.first.clientNonce + state.nonce);
    if (!constantTimeEqual(echoed, encoder.encode(state.nonce)) && !constantTimeEqual(echoed, duplicated)) {
      return this.#fail("nonce of the client-final message differs from the server-first nonce", userName);
    }
    if (!constantTimeEqual(final.channelBinding, encoder.encode(state.first.gs2Header))) {
      return this.#fail("channel binding differs from the gs2 header", userName);
    }
    const authMessage = `${state.first.bare},${state.serverFirst},${final.withoutProof}`;
    // An unknown user's proof is checked against a key nobody has, so that it takes the same work as a wrong password.
    const credential = state.credential ?? {
      storedKey: scramHmac(this.#scram, UNKNOWN_USER_SECRET, `stored\0${userName}`),
      serverKey: EMPTY,
    };
    const clientSignature = scramHmac(this.#scram, credential.storedKey, authMessage);
    if (final.proof.length !== clientSignature.length) return this.#fail("proof has the wrong length", userName);
    const clientKey = xor(clientSignature, final.proof);
    const proven = constantTimeEqual(scramHash(this.#scram, clientKey), credential.storedKey);
    if (state.credential === undefined) return this.#fail("no credential for the user", userName);
    if (!proven) return this.#fail("invalid client proof", userName);
    const serverSignature = scramHmac(this.#scram, credential.serverKey, authMessage);
    return { kind: "complete", token: encoder.encode(formatServerFinal(serverSignature)), userName };
  }

  #fail(reason: string, userName?: string): SaslStep {
    this.#state = "over";
    return failedStep(scramFailureMessage(this.#scram), reason, userName);
  }
}

function randomNonce(): string {
  return randomBytes(24).toString("base64url");
}

function xor(left: Uint8Array, right: Uint8Array): Uint8Array {
  const out = new Uint8Array(left.length);
  for (let index = 0; index < left.length; index += 1) out[index] = left[index]! ^ right[index]!;
  return out;
}

/** Equality that takes the same time for every pair of equal-length inputs. */
function constantTimeEqual(left: Uint8Array, right: Uint8Array): boolean {
  return left.length === right.length && timingSafeEqual(left, right);
}
