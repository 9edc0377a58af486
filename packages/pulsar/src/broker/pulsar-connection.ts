// One client connection of the Pulsar broker, sans socket: frames in (as PulsarFrameDecoder splits them), frames
// out through the sink. CONNECT must come first and once (answered CONNECTED with the lower of both protocol
// versions); then commands are handled in arrival order — a command waits for the ones before it only while they
// open something (a topic, a subscription), never for appends or acks in flight. PING is answered with PONG;
// discovery is answered by any broker (LOOKUP names the topic's owner), GET_TOPICS_OF_NAMESPACE lists a namespace's
// topics; a PRODUCER or SUBSCRIBE first has its topic prepared (created as the policies allow, TopicProvisioning)
// and its schema registered (schema-requests.ts), then ConnectionProducers and ConnectionConsumers handle them;
// GET_SCHEMA and GET_OR_CREATE_SCHEMA use the schema registry. A request this broker does not serve gets
// ERROR(NotAllowed); a command a client never sends, an undecodable frame or a SEND it cannot place closes the
// connection — after the commands before it were handled and their replies written (waiting at most
// CLOSE_REPLY_WAIT_MS for them). Every SEND counts as a pending publish from its arrival until its answer is
// written (PublishThrottle): over the bounds, the connection asks its sink to stop reading. With authentication on,
// CONNECT's credentials are checked before anything else is served (a refusal is ERROR(AuthenticationError) and the
// connection closes) and expired credentials are refreshed through AUTH_CHALLENGE / AUTH_RESPONSE (ConnectionAuth);
// with authorization on, discovery, PRODUCER, SUBSCRIBE and topic listings need the role's permission first.
import { ErrorCode, NereusError } from "@nereus/core";
import { PulsarAuthRefusal } from "../auth/auth-refusal.js";
import { ConnectionAuth, REFRESH_AUTH_DATA } from "../auth/connection-auth.js";
import { TOKEN_AUTH_METHOD } from "../auth/pulsar-authentication.js";
import { parseTopicName } from "../topics/topic-name.js";
import {
  type CommandAuthResponse,
  type CommandConnect,
  type CommandLookupTopic,
  type CommandPartitionedTopicMetadata,
  type CommandProducer,
  type CommandSubscribe,
  type DecodedFrame,
  LookupOutcome,
  PartitionedMetadataOutcome,
  ProtocolVersion,
  type SchemaInfo,
  ServerError,
  decodeFrame,
} from "../protocol/index.js";
import { ConnectionConsumers } from "./connection-consumers.js";
import { ConnectionIo, type ConnectionSink } from "./connection-io.js";
import { ConnectionProducers } from "./connection-producers.js";
import { errorCommand, errorReplyOf } from "./error-replies.js";
import { answerTopicsOfNamespace } from "./namespace-topic-list.js";
import type { PulsarBrokerContext } from "./pulsar-broker.js";
import { answerGetOrCreateSchema, answerGetSchema, registerDeclaredSchema } from "./schema-requests.js";
import { PublishThrottle } from "./publish-backpressure.js";
import { TopicProvisioning } from "./topic-provisioning.js";
import { lookupAnswer } from "./topic-lookup.js";

export type { ConnectionSink } from "./connection-io.js";

/** The protocol version this broker speaks (clients above it are answered with it). */
export const BROKER_PROTOCOL_VERSION = ProtocolVersion.AUTO_CONSUME_SCHEMA;

/** Requests this broker answers with ERROR(NotAllowed) (they carry a request id). */
const NOT_SERVED = new Set(["CONSUMER_STATS"]);

/** The request id of an ERROR that answers no request (a refused CONNECT or AUTH_RESPONSE): Pulsar's -1. */
const NO_REQUEST_ID = 2n ** 64n - 1n;

/** How long a connection closing on a protocol error waits for the replies to the commands before it. */
const CLOSE_REPLY_WAIT_MS = 5_000;

/** What a frame other than SEND marks when it is answered: nothing. */
function noAnswerOwed(): void {}

/** True when the broker answers `command` with exactly one reply (a request id, or a SEND's receipt). */
function expectsReply(command: DecodedFrame["command"]): boolean {
  if (command.type === "SEND" || command.type === "CONNECT" || command.type === "PING") return true;
  const body: unknown = "body" in command ? command.body : undefined;
  return typeof body === "object" && body !== null && typeof (body as { requestId?: unknown }).requestId === "bigint";
}

/** One client connection (see the module comment). */
export class PulsarConnection {
  readonly #io: ConnectionIo;
  readonly #producers: ConnectionProducers;
  readonly #consumers: ConnectionConsumers;
  readonly #topics: TopicProvisioning;
  readonly #publishes: PublishThrottle;
  readonly #auth: ConnectionAuth;
  readonly #onClosed: () => void;
  #connected = false;
  /** Settles once every command received so far was started. */
  #queue: Promise<void> = Promise.resolve();
  /** Frames admitted so far (a frame's index is its position among them, from 1). */
  #admitted = 0;
  /** Frames admitted after this index are dropped: the connection is closing. */
  #lastHandled = Number.POSITIVE_INFINITY;
  /** The frame being handled: its index, and whether it was counted as owed a reply. */
  #current = { index: 0, counted: false };

  constructor(context: PulsarBrokerContext, sink: ConnectionSink, onClosed: () => void) {
    this.#io = new ConnectionIo(context, sink);
    this.#producers = new ConnectionProducers(this.#io);
    this.#consumers = new ConnectionConsumers(this.#io);
    this.#topics = new TopicProvisioning(context);
    this.#publishes = new PublishThrottle(
      context.maxPendingPublishRequestsPerConnection,
      context.publishBuffer,
      sink.reads,
    );
    this.#auth = new ConnectionAuth(context.auth);
    this.#onClosed = onClosed;
  }

  /** Handles one frame (without its totalSize field). Throws DECODE_ERROR for a frame that cannot be decoded. */
  handleFrame(frame: Uint8Array): void {
    this.handleDecoded(decodeFrame(frame));
  }

  /** Handles one decoded frame (nothing once the connection is closing). */
  handleDecoded(frame: DecodedFrame): void {
    if (this.#io.closed || this.#admitted >= this.#lastHandled) return;
    this.#admitted += 1;
    const index = this.#admitted;
    const answered =
      frame.command.type === "SEND" ? this.#publishes.started(frame.payload?.entry.length ?? 0) : noAnswerOwed;
    this.#queue = this.#queue.then(async () => {
      if (this.#io.closed || index > this.#lastHandled) return answered();
      this.#current = { index, counted: expectsReply(frame.command) };
      if (this.#current.counted) this.#io.expectReply();
      try {
        await this.#handle(frame, answered);
      } catch (error) {
        answered();
        this.#io.context.onError(error);
        this.#violation(
          `command ${frame.command.type} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
  }

  /**
   * The byte stream broke after the frames handed over so far (a frame that cannot be split or decoded): those
   * frames are still handled and answered, then the connection closes through its sink. Later frames are dropped.
   */
  abort(reason: string): void {
    if (this.#io.closed) return;
    this.#io.context.onError(new NereusError(ErrorCode.DECODE_ERROR, `Pulsar connection closed: ${reason}`));
    this.#closeAfterReplies(reason, this.#admitted);
  }

  /** The SENDs received and not answered yet, and whether the connection asked its sink to stop reading. */
  get pendingPublishes(): { readonly count: number; readonly bytes: number; readonly readingPaused: boolean } {
    const throttle = this.#publishes;
    return { count: throttle.pendingCount, bytes: throttle.pendingBytes, readingPaused: throttle.readingPaused };
  }

  /** Settles once the commands handed over so far were handled (their replies may still be pending). */
  async idle(): Promise<void> {
    await this.#queue;
  }

  /** Detaches the connection's consumers and forgets its producers. Idempotent. */
  close(): void {
    if (this.#io.closed) return;
    this.#io.close();
    this.#auth.close();
    this.#publishes.close();
    this.#consumers.closeAll();
    this.#producers.closeAll();
    this.#onClosed();
  }

  /** Handles one frame; `answered` marks a SEND answered (or dropped). */
  async #handle({ command, payload }: DecodedFrame, answered: () => void): Promise<void> {
    if (!this.#connected) {
      answered();
      if (command.type !== "CONNECT") return this.#violation(`${command.type} before CONNECT`);
      return this.#connect(command.body);
    }
    switch (command.type) {
      case "PING":
        return this.#io.send({ type: "PONG", body: {} });
      case "PONG":
        return;
      case "AUTH_RESPONSE":
        return this.#authResponse(command.body);
      case "PARTITIONED_METADATA":
        return this.#partitionedMetadata(command.body);
      case "LOOKUP":
        return this.#lookup(command.body);
      case "PRODUCER":
        return this.#openProducer(command.body);
      case "SEND":
        if (this.#producers.send(command.body, payload, answered)) return;
        answered();
        return this.#violation("SEND of an unknown producer or without payload");
      case "CLOSE_PRODUCER":
        return this.#producers.close(command.body);
      case "SUBSCRIBE":
        return this.#subscribe(command.body);
      case "FLOW":
        return this.#consumers.flow(command.body);
      case "ACK":
        return this.#consumers.ack(command.body);
      case "REDELIVER_UNACKNOWLEDGED_MESSAGES":
        return this.#consumers.redeliver(command.body);
      case "SEEK":
        return this.#consumers.seek(command.body);
      case "GET_LAST_MESSAGE_ID":
        return this.#consumers.lastMessageId(command.body);
      case "UNSUBSCRIBE":
        return this.#consumers.unsubscribe(command.body);
      case "CLOSE_CONSUMER":
        return this.#consumers.closeConsumer(command.body);
      case "GET_SCHEMA":
        return answerGetSchema(this.#io, command.body);
      case "GET_OR_CREATE_SCHEMA":
        return answerGetOrCreateSchema(this.#io, command.body);
      case "GET_TOPICS_OF_NAMESPACE":
        return answerTopicsOfNamespace(this.#io, command.body, (namespace) =>
          this.#auth.authorizeNamespaceLookup(namespace),
        );
      default:
        return this.#unserved(command.type, "body" in command ? command.body : undefined);
    }
  }

  async #connect(command: CommandConnect): Promise<void> {
    const clientVersion = command.protocolVersion ?? 0;
    if (clientVersion < ProtocolVersion.CHECKSUM) {
      const reply = {
        error: ServerError.UnsupportedVersionError,
        message: `protocol version ${clientVersion} is too old`,
      };
      this.#io.send(errorCommand(0n, reply));
      return this.#violation("protocol version too old");
    }
    try {
      await this.#auth.connect(command, {
        challenge: () => this.#challenge(),
        expired: (reason) => this.#expired(reason),
      });
    } catch (error) {
      return this.#authenticationFailed(error);
    }
    this.#connected = true;
    this.#io.protocolVersion = Math.min(clientVersion, BROKER_PROTOCOL_VERSION);
    this.#io.send({
      type: "CONNECTED",
      body: {
        serverVersion: this.#io.context.serverVersion,
        protocolVersion: this.#io.protocolVersion,
        maxMessageSize: this.#io.context.maxMessageBytes,
      },
    });
  }

  /** Credentials were refused: ERROR(AuthenticationError) as Pulsar answers it, then the connection closes. */
  #authenticationFailed(error: unknown): void {
    const reply = { error: ServerError.AuthenticationError, message: "Failed to authenticate" };
    this.#io.send(errorCommand(NO_REQUEST_ID, reply));
    this.#violation(`authentication failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  async #authResponse(command: CommandAuthResponse): Promise<void> {
    try {
      await this.#auth.respond(command);
    } catch (error) {
      this.#authenticationFailed(error);
    }
  }

  /** Asks the client to refresh its expired credentials. */
  #challenge(): void {
    this.#io.send({
      type: "AUTH_CHALLENGE",
      body: {
        serverVersion: this.#io.context.serverVersion,
        challenge: { authMethodName: TOKEN_AUTH_METHOD, authData: REFRESH_AUTH_DATA },
        protocolVersion: this.#io.protocolVersion,
      },
    });
  }

  /** The credentials expired and were not refreshed: the connection closes at once. */
  #expired(reason: string): void {
    this.#io.context.onError(new NereusError(ErrorCode.INVALID_ARGUMENT, `Pulsar connection closed: ${reason}`));
    this.#io.closeSocket(reason);
    this.close();
  }

  async #partitionedMetadata(command: CommandPartitionedTopicMetadata): Promise<void> {
    const { requestId } = command;
    try {
      const topic = parseTopicName(command.topic);
      await this.#auth.authorizeTopic(topic, "lookup");
      const partitions = await this.#topics.partitionCount(topic, command.metadataAutoCreationEnabled !== false);
      this.#io.send({
        type: "PARTITIONED_METADATA_RESPONSE",
        body: { requestId, partitions, response: PartitionedMetadataOutcome.Success },
      });
    } catch (error) {
      const reply = errorReplyOf(error);
      this.#io.send({
        type: "PARTITIONED_METADATA_RESPONSE",
        body: { requestId, response: PartitionedMetadataOutcome.Failed, error: reply.error, message: reply.message },
      });
    }
  }

  async #lookup(command: CommandLookupTopic): Promise<void> {
    const { requestId } = command;
    try {
      await this.#auth.authorizeTopic(parseTopicName(command.topic), "lookup");
    } catch (error) {
      const { error: code, message } = errorReplyOf(error);
      const reply = { error: error instanceof PulsarAuthRefusal ? code : ServerError.InvalidTopicName, message };
      this.#io.send({ type: "LOOKUP_RESPONSE", body: { requestId, response: LookupOutcome.Failed, ...reply } });
      return;
    }
    this.#io.send({ type: "LOOKUP_RESPONSE", body: lookupAnswer(requestId, command.topic, this.#io.context) });
  }

  async #openProducer(command: CommandProducer): Promise<void> {
    const admitted = await this.#admit(command.requestId, command.topic, command.schema, true, "produce");
    if (admitted !== undefined) await this.#producers.open(command, admitted.schemaVersion);
  }

  async #subscribe(command: CommandSubscribe): Promise<void> {
    const create = command.forceTopicCreation !== false;
    const admitted = await this.#admit(
      command.requestId,
      command.topic,
      command.schema,
      create,
      "consume",
      command.subscription,
    );
    if (admitted !== undefined) await this.#consumers.subscribe(command);
  }

  /**
   * Checks the role may `operation` the topic of a PRODUCER or SUBSCRIBE, prepares the topic (created as the policies
   * allow) and registers the schema it declares. Returns the schema version to announce, or undefined after
   * answering ERROR.
   */
  async #admit(
    requestId: bigint,
    topicName: string,
    schema: SchemaInfo | undefined,
    create: boolean,
    operation: "produce" | "consume",
    subscription?: string,
  ): Promise<{ readonly schemaVersion?: Uint8Array } | undefined> {
    try {
      const topic = parseTopicName(topicName);
      await this.#auth.authorizeTopic(topic, operation, subscription);
      await this.#topics.prepare(topic, create);
      const declared = await registerDeclaredSchema(this.#io, topic, schema);
      if (declared.accepted) return declared;
      this.#io.send(errorCommand(requestId, declared.reply));
    } catch (error) {
      this.#io.send(errorCommand(requestId, errorReplyOf(error)));
    }
    return undefined;
  }

  /** A request this broker does not serve gets ERROR(NotAllowed); anything else closes the connection. */
  #unserved(type: string, body: unknown): void {
    const requestId =
      typeof body === "object" && body !== null && "requestId" in body
        ? (body as { requestId: unknown }).requestId
        : undefined;
    if (NOT_SERVED.has(type) && typeof requestId === "bigint") {
      this.#io.send(
        errorCommand(requestId, { error: ServerError.NotAllowedError, message: `${type} is not supported` }),
      );
      return;
    }
    this.#violation(`unexpected command ${type}`);
  }

  /** The frame being handled breaks the protocol: it gets no reply, later frames are dropped, the connection closes. */
  #violation(reason: string): void {
    this.#io.context.onError(new NereusError(ErrorCode.INVALID_ARGUMENT, `Pulsar connection closed: ${reason}`));
    if (this.#current.counted) this.#io.forgetReply();
    this.#current = { ...this.#current, counted: false };
    this.#closeAfterReplies(reason, this.#current.index);
  }

  /**
   * Drops the frames after `lastHandled`; once those before it were handled and their replies written (or
   * CLOSE_REPLY_WAIT_MS passed), closes the socket and the connection. Idempotent.
   */
  #closeAfterReplies(reason: string, lastHandled: number): void {
    if (this.#lastHandled !== Number.POSITIVE_INFINITY) return;
    this.#lastHandled = lastHandled;
    this.#queue = this.#queue
      .then(() => this.#io.repliesWritten(CLOSE_REPLY_WAIT_MS))
      .then(() => {
        this.#io.closeSocket(reason);
        this.close();
      });
  }
}
