// The SASL state machine of one connection on a SASL listener, as Kafka's server runs it. Before authentication a
// connection may send ApiVersions and SaslHandshake; after a v1 handshake only SaslAuthenticate requests, one at a
// time, carry the tokens; after a v0 handshake (librdkafka's fallback, old clients) the next frames are the raw
// tokens themselves, answered with raw size-prefixed tokens, and a failure closes without an answer. Anything else
// closes the connection and never reaches a handler.
// A failed exchange is answered (SASL_AUTHENTICATION_FAILED with the mechanism's message, or UNSUPPORTED_SASL_MECHANISM)
// and then the connection closes. Once authenticated every API is served until the session lifetime
// (reauthenticationMs) passes: then a SaslHandshake starts a re-authentication with the same mechanism and the same
// user, and any other request closes the connection. This module decides; the connection encodes and sends.
import type { SaslAuthenticateResponse } from "../../protocol/apis/sasl-authenticate/sasl-authenticate-response.js";
import type { SaslHandshakeResponse } from "../../protocol/apis/sasl-handshake/sasl-handshake-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { KafkaBrokerLogger } from "../../logging/broker-logger.js";
import type { KafkaPrincipal } from "../kafka-principal.js";
import { PlainExchange } from "./plain-exchange.js";
import { failedStep, type SaslExchange, type SaslStep } from "./sasl-exchange.js";
import type { SaslSettings } from "./sasl-options.js";
import { ScramExchange, type ScramCredentialLookup } from "./scram-exchange.js";
import { scramMechanismNamed } from "./scram-mechanism.js";

const API_VERSIONS = 18;
const SASL_HANDSHAKE = 17;
const SASL_AUTHENTICATE = 36;

/** What the broker gives every SASL connection. */
export interface SaslEnvironment {
  readonly settings: SaslSettings;
  readonly scramCredentials: ScramCredentialLookup;
  readonly logger: KafkaBrokerLogger;
  /** Called once per finished exchange (success or failure), for the authentication counters. */
  readonly onOutcome: (succeeded: boolean) => void;
}

/** What to do with a request. */
export type SaslGate =
  | { readonly kind: "serve" }
  | { readonly kind: "handshake" }
  | { readonly kind: "authenticate" }
  | { readonly kind: "close"; readonly reason: string };

/** A response body and whether the connection closes once it is sent. */
export interface SaslAnswer<Body> {
  readonly body: Body;
  readonly closeAfter: boolean;
}

interface Authenticated {
  readonly kind: "authenticated";
  readonly principal: KafkaPrincipal;
  readonly mechanism: string;
  /** Wall-clock ms after which the session has expired; undefined = never. */
  readonly expiresAt: number | undefined;
}

interface Exchanging {
  readonly kind: "exchanging";
  readonly exchange: SaslExchange;
  /** The session being renewed, during a re-authentication. */
  readonly previous: Authenticated | undefined;
  /** After a v0 handshake: frames are raw SASL tokens. */
  readonly raw: boolean;
  busy: boolean;
}

type SaslState = { readonly kind: "initial" } | Exchanging | Authenticated | { readonly kind: "failed" };

const SERVE: SaslGate = { kind: "serve" };
const EMPTY = new Uint8Array(0);

/** The mechanism's failure for a re-authentication that asked for another mechanism. */
class RefusedExchange implements SaslExchange {
  readonly mechanism: string;
  readonly #message: string;

  constructor(mechanism: string, message: string) {
    this.mechanism = mechanism;
    this.#message = message;
  }

  evaluate(): Promise<SaslStep> {
    return Promise.resolve(failedStep(this.#message, this.#message));
  }
}

/** The SASL state of one connection. */
export class SaslAuthenticator {
  readonly #environment: SaslEnvironment;
  readonly #connectionId: number;
  readonly #peer: string;
  #state: SaslState = { kind: "initial" };

  constructor(environment: SaslEnvironment, connectionId: number, peer: string) {
    this.#environment = environment;
    this.#connectionId = connectionId;
    this.#peer = peer;
  }

  /** The authenticated principal, or undefined before the first successful exchange. */
  get principal(): KafkaPrincipal | undefined {
    const state = this.#state;
    if (state.kind === "authenticated") return state.principal;
    if (state.kind === "exchanging") return state.previous?.principal;
    return undefined;
  }

  /** True when the next frame is a raw SASL token (after a v0 handshake), not a Kafka request. */
  get expectsRawToken(): boolean {
    return this.#state.kind === "exchanging" && this.#state.raw;
  }

  /** How a request of `apiKey` arriving at `now` is handled. */
  gate(apiKey: number, now: number): SaslGate {
    const state = this.#state;
    switch (state.kind) {
      case "initial":
        if (apiKey === API_VERSIONS) return SERVE;
        if (apiKey === SASL_HANDSHAKE) return { kind: "handshake" };
        return close(`API ${String(apiKey)} before SASL authentication`);
      case "exchanging":
        if (state.busy) return close(`API ${String(apiKey)} while a SASL token is being verified`);
        if (apiKey === SASL_AUTHENTICATE) return { kind: "authenticate" };
        return close(`API ${String(apiKey)} during SASL authentication`);
      case "authenticated":
        if (apiKey === SASL_HANDSHAKE) return { kind: "handshake" };
        if (state.expiresAt !== undefined && now > state.expiresAt) {
          return close("SASL session expired without re-authentication");
        }
        return apiKey === SASL_AUTHENTICATE ? { kind: "authenticate" } : SERVE;
      case "failed":
        return close("SASL authentication failed");
    }
  }

  /** Answers a SaslHandshake (the gate said "handshake"). */
  handshake(mechanism: string, apiVersion: number): SaslAnswer<SaslHandshakeResponse> {
    const { settings } = this.#environment;
    const mechanisms = [...settings.mechanisms];
    const state = this.#state;
    const enabled = (settings.mechanisms as readonly string[]).includes(mechanism);
    if (!enabled) {
      this.#fail(mechanism, undefined, `SASL mechanism ${JSON.stringify(mechanism)} is not enabled`);
      return { body: { errorCode: KafkaErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms }, closeAfter: true };
    }
    const previous = state.kind === "authenticated" ? state : undefined;
    const exchange =
      previous !== undefined && previous.mechanism !== mechanism
        ? new RefusedExchange(
            mechanism,
            `SASL mechanism '${mechanism}' requested by client is not supported for re-authentication of mechanism '${previous.mechanism}'`,
          )
        : this.#exchangeOf(mechanism);
    this.#state = { kind: "exchanging", exchange, previous, raw: apiVersion === 0, busy: false };
    return { body: { errorCode: KafkaErrorCode.NONE, mechanisms }, closeAfter: false };
  }

  /** Answers a SaslAuthenticate (the gate said "authenticate"); `authBytes` is copied before any await. */
  async authenticate(
    authBytes: Uint8Array,
    now: () => number,
    signal?: AbortSignal,
  ): Promise<SaslAnswer<SaslAuthenticateResponse>> {
    const state = this.#state;
    if (state.kind !== "exchanging") {
      return {
        body: authenticateError(
          KafkaErrorCode.ILLEGAL_SASL_STATE,
          "SaslAuthenticate request received after successful authentication",
        ),
        closeAfter: false,
      };
    }
    state.busy = true;
    const token = authBytes.slice();
    let step: SaslStep;
    try {
      step = await state.exchange.evaluate(token, signal);
    } catch (error) {
      this.#environment.logger.warn("SASL credentials could not be read", {
        connection: this.#connectionId,
        peer: this.#peer,
        mechanism: state.exchange.mechanism,
        error: String(error),
      });
      step = failedStep(
        `Authentication failed during authentication due to invalid credentials with SASL mechanism ${state.exchange.mechanism}`,
        "credentials could not be read",
      );
    } finally {
      state.busy = false;
    }
    if (this.#state !== state)
      return { body: authenticateError(KafkaErrorCode.ILLEGAL_SASL_STATE, null), closeAfter: true };
    return this.#answer(state, step, now());
  }

  /**
   * Evaluates a raw token (the state expects one); resolves with the server's raw token, or undefined when the
   * exchange failed (the connection closes without an answer, as Kafka does on this path).
   */
  async authenticateRaw(token: Uint8Array, now: () => number, signal?: AbortSignal): Promise<Uint8Array | undefined> {
    const state = this.#state;
    if (state.kind !== "exchanging" || state.busy) {
      this.#state = { kind: "failed" };
      return undefined;
    }
    const answer = await this.authenticate(token, now, signal);
    return answer.body.errorCode === KafkaErrorCode.NONE ? answer.body.authBytes : undefined;
  }

  #answer(state: Exchanging, step: SaslStep, now: number): SaslAnswer<SaslAuthenticateResponse> {
    if (step.kind === "challenge") {
      return { body: success(step.token, 0), closeAfter: false };
    }
    const mechanism = state.exchange.mechanism;
    if (step.kind === "failed") {
      this.#fail(mechanism, step.userName, step.reason);
      return {
        body: authenticateError(KafkaErrorCode.SASL_AUTHENTICATION_FAILED, step.clientMessage),
        closeAfter: true,
      };
    }
    const principal: KafkaPrincipal = { type: "User", name: step.userName };
    const previous = state.previous;
    if (previous !== undefined && previous.principal.name !== principal.name) {
      const message = `Cannot change principals during re-authentication from User.${previous.principal.name}: User.${principal.name}`;
      this.#fail(mechanism, step.userName, message);
      return { body: authenticateError(KafkaErrorCode.SASL_AUTHENTICATION_FAILED, message), closeAfter: true };
    }
    const lifetime = this.#environment.settings.reauthenticationMs;
    this.#state = {
      kind: "authenticated",
      principal,
      mechanism,
      expiresAt: lifetime > 0 ? now + lifetime : undefined,
    };
    this.#environment.onOutcome(true);
    this.#environment.logger.debug(previous === undefined ? "SASL authenticated" : "SASL re-authenticated", {
      connection: this.#connectionId,
      peer: this.#peer,
      mechanism,
      user: principal.name,
    });
    return { body: success(step.token, lifetime), closeAfter: false };
  }

  #exchangeOf(mechanism: string): SaslExchange {
    const scram = scramMechanismNamed(mechanism);
    if (scram !== undefined) return new ScramExchange(scram, this.#environment.scramCredentials);
    return new PlainExchange(this.#environment.settings.plainUsers);
  }

  #fail(mechanism: string, userName: string | undefined, reason: string): void {
    this.#state = { kind: "failed" };
    this.#environment.onOutcome(false);
    this.#environment.logger.info("SASL authentication failed", {
      connection: this.#connectionId,
      peer: this.#peer,
      mechanism,
      user: userName ?? null,
      reason,
    });
  }
}

function close(reason: string): SaslGate {
  return { kind: "close", reason };
}

function success(token: Uint8Array, sessionLifetimeMs: number): SaslAuthenticateResponse {
  return { errorCode: KafkaErrorCode.NONE, errorMessage: null, authBytes: token, sessionLifetimeMs };
}

function authenticateError(errorCode: number, errorMessage: string | null): SaslAuthenticateResponse {
  return { errorCode, errorMessage, authBytes: EMPTY, sessionLifetimeMs: 0 };
}
