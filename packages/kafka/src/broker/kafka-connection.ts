// One client connection, sans-IO at the frame level: request frames in (size prefix removed), response frames
// out (size prefix included), in request order. Each frame is decoded and its handler started synchronously in
// handleFrame, so handlers observe arrival order; the returned promise of frame n settles only after that of
// frame n-1, whatever order the handlers finish in. A frame that must end the connection (undecodable header,
// unknown API, a version this broker does not advertise) rejects with NereusError(DECODE_ERROR) — the listener
// closes the socket — and so does every later frame. An ApiVersions request of an unknown version gets Kafka's v0
// fallback; a decodable header with a malformed body gets the API's error body (INVALID_REQUEST).
// On a SASL listener (SASL_PLAINTEXT, SASL_SSL) the connection's SaslAuthenticator decides first: before
// authentication only ApiVersions, SaslHandshake and SaslAuthenticate are answered (by the authenticator, never by a
// handler) and any other request closes the connection; a failed authentication is answered and then the connection
// is finished: `finished` turns true, the listener closes it once that response is written, and later frames are
// refused.
import { ErrorCode, NereusError } from "@nereus/core";
import { type MaxVersionCaps, encodeApiVersionsFallback } from "../protocol/advertised-api-versions.js";
import { type DecodedRequest, type KafkaRequest, decodeRequest } from "../protocol/decode-request.js";
import { encodeResponse, encodeResponseParts } from "../protocol/encode-response.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { readRequestHeader } from "../protocol/headers/request-header.js";
import { findSupportedApi } from "../protocol/supported-apis.js";
import { ByteReader } from "@nereus/core";
import type { KafkaBrokerLogger } from "../logging/broker-logger.js";
import type { BrokerMetrics } from "./broker-metrics.js";
import { errorResponseBody } from "./error-response.js";
import { joinBytes } from "../protocol/primitives/join-bytes.js";
import { ANONYMOUS_PRINCIPAL, type KafkaPrincipal } from "../security/kafka-principal.js";
import { type ConnectionTransport, PLAINTEXT_TRANSPORT, requiresSasl } from "../security/connection-transport.js";
import { type SaslAnswer, SaslAuthenticator, type SaslEnvironment } from "../security/sasl/sasl-authenticator.js";
import { NO_SASL } from "./broker-sasl.js";
import {
  type BrokerIdentity,
  type KafkaApiHandler,
  NO_RESPONSE,
  type RequestContext,
  type TopicCatalog,
} from "./kafka-api-handler.js";

/** One client connection. */
export interface KafkaConnection {
  /**
   * Handles one request frame (without its 4-byte size prefix; not modified by the caller until the promise
   * settles). Resolves with the complete response frame, or undefined when the request gets no response
   * (Produce acks=0). Promises settle in call order. Rejects with NereusError(DECODE_ERROR) when the connection
   * must be closed.
   */
  handleFrame(frame: Uint8Array): Promise<Uint8Array | undefined>;
  /**
   * `handleFrame` with the response frame as parts to write in order: large record data (Fetch) is the stored
   * bytes themselves, not copied into the frame. Same ordering, same rejections.
   */
  handleFrameParts(frame: Uint8Array): Promise<readonly Uint8Array[] | undefined>;
  /** The client stopped sending (half-close): waiting requests (long-polling fetches) answer at once. Idempotent. */
  endOfInput(): void;
  /** Aborts waiting requests (long-polling fetches); later frames are refused. Idempotent. */
  close(): void;
  /**
   * True once the connection answered its last request (a failed SASL authentication): its owner closes it after
   * writing that response; later frames are refused.
   */
  readonly finished: boolean;
}

/** What every connection of one broker shares. */
export interface ConnectionEnvironment {
  readonly handlers: ReadonlyMap<number, KafkaApiHandler>;
  /** Highest advertised version per API key (absent ⇒ not advertised). */
  readonly maxVersions: ReadonlyMap<number, number>;
  readonly caps: MaxVersionCaps;
  readonly identity: BrokerIdentity;
  readonly topics: TopicCatalog;
  readonly logger: KafkaBrokerLogger;
  readonly metrics: BrokerMetrics;
  readonly clock: () => number;
  /** Aborted when the broker closes. */
  readonly brokerClosing: AbortSignal;
  readonly onClose: (connection: BrokerConnection) => void;
  /** What SASL listeners accept (absent: no mechanism is enabled and every SASL handshake is refused). */
  readonly sasl?: SaslEnvironment;
}

function closing(message: string, cause?: unknown): NereusError {
  return new NereusError(ErrorCode.DECODE_ERROR, message, { retryable: false, cause });
}

const ignore = (): void => undefined;

/** The broker's KafkaConnection implementation. */
export class BrokerConnection implements KafkaConnection {
  readonly id: number;
  readonly peer: string;
  /** The listener this connection came in on and its security protocol. */
  readonly transport: ConnectionTransport;
  /** Who this connection authenticated as; ANONYMOUS until an authentication step sets it. */
  principal: KafkaPrincipal = ANONYMOUS_PRINCIPAL;
  readonly #environment: ConnectionEnvironment;
  readonly #abort = new AbortController();
  readonly #signal: AbortSignal;
  readonly #inputEnded = new AbortController();
  readonly #waitSignal: AbortSignal;
  #tail: Promise<unknown> = Promise.resolve();
  #closed = false;
  #finished = false;
  /** Present on SASL listeners. */
  readonly #sasl: SaslAuthenticator | undefined;

  constructor(
    id: number,
    peer: string,
    environment: ConnectionEnvironment,
    transport: ConnectionTransport = PLAINTEXT_TRANSPORT,
  ) {
    this.id = id;
    this.peer = peer;
    this.transport = transport;
    this.#environment = environment;
    this.#signal = AbortSignal.any([this.#abort.signal, environment.brokerClosing]);
    this.#waitSignal = AbortSignal.any([this.#signal, this.#inputEnded.signal]);
    this.#sasl = requiresSasl(transport.securityProtocol)
      ? new SaslAuthenticator(environment.sasl ?? NO_SASL, id, peer)
      : undefined;
  }

  get finished(): boolean {
    return this.#finished;
  }

  handleFrame(frame: Uint8Array): Promise<Uint8Array | undefined> {
    return this.handleFrameParts(frame).then((parts) => (parts === undefined ? undefined : joinBytes(parts)));
  }

  handleFrameParts(frame: Uint8Array): Promise<readonly Uint8Array[] | undefined> {
    let work: Promise<readonly Uint8Array[] | undefined>;
    if (this.#closed || this.#finished) work = Promise.reject(closing(`connection ${String(this.id)} is closed`));
    else {
      try {
        work = this.#dispatch(frame);
      } catch (error) {
        work = Promise.reject(error instanceof Error ? error : closing(String(error)));
      }
    }
    work.catch(ignore);
    const result = this.#tail.then(() => work);
    result.catch(() => {
      if (!this.#closed) {
        this.#environment.metrics.closedConnections += 1;
        this.close();
      }
    });
    this.#tail = result;
    return result;
  }

  endOfInput(): void {
    if (!this.#inputEnded.signal.aborted)
      this.#inputEnded.abort(
        new NereusError(ErrorCode.CANCELLED, `connection ${String(this.id)} stopped sending`, { retryable: false }),
      );
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort(
      new NereusError(ErrorCode.CANCELLED, `connection ${String(this.id)} closed`, { retryable: false }),
    );
    this.#environment.onClose(this);
  }

  #dispatch(frame: Uint8Array): Promise<readonly Uint8Array[] | undefined> {
    const environment = this.#environment;
    if (this.#sasl?.expectsRawToken === true) return this.#rawSaslToken(this.#sasl, frame);
    const receivedAtMillis = environment.clock();
    let decoded: DecodedRequest;
    try {
      decoded = decodeRequest(frame);
    } catch (error) {
      return this.#malformed(frame, error);
    }
    if (decoded.kind === "unsupported-version" && decoded.apiKey === 18) {
      return Promise.resolve([encodeApiVersionsFallback(decoded.correlationId, environment.caps)]);
    }
    if (decoded.kind !== "request") {
      return Promise.reject(
        closing(
          `${decoded.kind === "unknown-api" ? "unknown API" : "unsupported version of API"} ${String(decoded.apiKey)} v${String(decoded.apiVersion)}`,
        ),
      );
    }
    const handler = environment.handlers.get(decoded.apiKey);
    const maxVersion = environment.maxVersions.get(decoded.apiKey);
    if (handler === undefined || maxVersion === undefined || decoded.apiVersion > maxVersion) {
      return Promise.reject(
        closing(`API ${String(decoded.apiKey)} v${String(decoded.apiVersion)} is not advertised by this broker`),
      );
    }
    const request = decoded;
    const apiName = findSupportedApi(request.apiKey)?.name ?? String(request.apiKey);
    if (this.#sasl !== undefined) {
      const gated = this.#gateSasl(this.#sasl, request, receivedAtMillis);
      if (gated !== undefined) {
        environment.metrics.request(apiName);
        return gated;
      }
    }
    environment.metrics.request(apiName);
    const context: RequestContext = {
      connectionId: this.id,
      peer: this.peer,
      clientId: request.header.clientId,
      principal: this.principal,
      transport: this.transport,
      apiKey: request.apiKey,
      apiVersion: request.apiVersion,
      correlationId: request.correlationId,
      receivedAtMillis,
      signal: this.#signal,
      waitSignal: this.#waitSignal,
      broker: environment.identity,
      topics: environment.topics,
      logger: environment.logger,
    };
    let pending: Promise<unknown>;
    try {
      pending = handler.handle(context, request as never);
    } catch (error) {
      pending = Promise.reject(error);
    }
    return pending.then(
      (body) => (body === NO_RESPONSE ? undefined : this.#encode(request, body, apiName)),
      (error: unknown) => [this.#failed(request, apiName, error)],
    );
  }

  /** The SASL answer of `request`, or undefined when it goes to its handler. */
  #gateSasl(
    sasl: SaslAuthenticator,
    request: KafkaRequest,
    now: number,
  ): Promise<readonly Uint8Array[] | undefined> | undefined {
    const gate = sasl.gate(request.apiKey, now);
    switch (gate.kind) {
      case "serve":
        return undefined;
      case "close":
        return Promise.reject(closing(`connection ${String(this.id)}: ${gate.reason}`));
      case "handshake":
        if (request.apiKey !== 17) throw new TypeError("handshake gate for another API");
        return Promise.resolve(this.#saslAnswer(request, sasl.handshake(request.body.mechanism, request.apiVersion)));
      case "authenticate":
        if (request.apiKey !== 36) throw new TypeError("authenticate gate for another API");
        return sasl
          .authenticate(request.body.authBytes, this.#environment.clock, this.#signal)
          .then((answer) => this.#saslAnswer(request, answer));
    }
  }

  /** A raw SASL token after a v0 handshake: answered with the raw server token; a failure closes unanswered. */
  #rawSaslToken(sasl: SaslAuthenticator, frame: Uint8Array): Promise<readonly Uint8Array[]> {
    return sasl.authenticateRaw(frame, this.#environment.clock, this.#signal).then((token) => {
      if (token === undefined) throw closing(`connection ${String(this.id)}: SASL authentication failed`);
      const principal = sasl.principal;
      if (principal !== undefined) this.principal = principal;
      const size = new Uint8Array(4);
      new DataView(size.buffer).setInt32(0, token.length);
      return [size, token];
    });
  }

  #saslAnswer(request: KafkaRequest, answer: SaslAnswer<unknown>): readonly Uint8Array[] {
    if (answer.closeAfter) this.#finished = true;
    const principal = this.#sasl?.principal;
    if (principal !== undefined) this.principal = principal;
    return [encodeResponse(request, answer.body as never)];
  }

  #encode(request: KafkaRequest, body: unknown, apiName: string): readonly Uint8Array[] {
    try {
      return encodeResponseParts(request, body as never);
    } catch (error) {
      return [this.#failed(request, apiName, error)];
    }
  }

  /** A handler failed (a bug): log it and answer the API's generic error body. */
  #failed(request: KafkaRequest, apiName: string, error: unknown): Uint8Array {
    this.#environment.metrics.requestError(apiName);
    this.#environment.logger.error("request handler failed", {
      api: apiName,
      version: request.apiVersion,
      connection: this.id,
      peer: this.peer,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return encodeResponse(request, errorResponseBody(request.apiKey, KafkaErrorCode.UNKNOWN_SERVER_ERROR) as never);
  }

  /** An undecodable frame: an error body when its header names an advertised API version, else close. */
  #malformed(frame: Uint8Array, error: unknown): Promise<readonly Uint8Array[] | undefined> {
    let header;
    try {
      header = readRequestHeader(new ByteReader(frame, "Kafka request header"), 1);
    } catch {
      return Promise.reject(closing(`undecodable request header: ${String(error)}`, error));
    }
    const api = findSupportedApi(header.apiKey);
    const maxVersion = this.#environment.maxVersions.get(header.apiKey);
    if (
      (this.#sasl !== undefined && this.#sasl.gate(header.apiKey, this.#environment.clock()).kind !== "serve") ||
      api === undefined ||
      maxVersion === undefined ||
      header.apiVersion < api.minVersion ||
      header.apiVersion > maxVersion
    ) {
      return Promise.reject(
        closing(
          `malformed request for API ${String(header.apiKey)} v${String(header.apiVersion)}: ${String(error)}`,
          error,
        ),
      );
    }
    this.#environment.logger.debug("malformed request body", {
      api: api.name,
      version: header.apiVersion,
      connection: this.id,
      error: String(error),
    });
    const target = {
      apiKey: header.apiKey as never,
      apiVersion: header.apiVersion,
      correlationId: header.correlationId,
    };
    try {
      return Promise.resolve([
        encodeResponse(target, errorResponseBody(header.apiKey as never, KafkaErrorCode.INVALID_REQUEST) as never),
      ]);
    } catch (encodeError) {
      return Promise.reject(closing(`cannot answer a malformed request: ${String(encodeError)}`, error));
    }
  }
}
