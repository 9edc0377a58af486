// What the command handlers of one connection share: the broker context, the frames they write to the client, and a
// count of the replies the connection still owes (requests received and not answered yet), so that a connection
// closing on a protocol error can first write the answers to the requests before it.
import { type PulsarCommand, encodeCommandFrame, encodePayloadFrameHead } from "../protocol/index.js";
import type { PulsarBrokerContext } from "./pulsar-broker.js";
import type { ReadControl } from "./publish-backpressure.js";

/** Where a connection's frames go (the listener's socket). */
export interface ConnectionSink {
  /** Writes the parts of one frame, in order. */
  write(parts: readonly Uint8Array[]): void;
  /** The connection is over (a protocol violation, or closed): close the socket after what was written. */
  close(reason: string): void;
  /** Stops and resumes the reading of the socket (publish backpressure); absent when there is nothing to pause. */
  readonly reads?: ReadControl;
  /** How the client reached the broker: over TLS or not, and the subject of a verified client certificate. */
  readonly transport?: { readonly tls: boolean; readonly peerCertificateSubject?: string };
}

/** The commands that answer one request (or SEND) of the client. */
const REPLY_TYPES: ReadonlySet<PulsarCommand["type"]> = new Set<PulsarCommand["type"]>([
  "CONNECTED",
  "PONG",
  "SUCCESS",
  "ERROR",
  "PRODUCER_SUCCESS",
  "SEND_RECEIPT",
  "SEND_ERROR",
  "PARTITIONED_METADATA_RESPONSE",
  "LOOKUP_RESPONSE",
  "CONSUMER_STATS_RESPONSE",
  "GET_LAST_MESSAGE_ID_RESPONSE",
  "GET_TOPICS_OF_NAMESPACE_RESPONSE",
  "GET_SCHEMA_RESPONSE",
  "GET_OR_CREATE_SCHEMA_RESPONSE",
  "ACK_RESPONSE",
]);

/** The writing side of one connection, for its handlers. */
export class ConnectionIo {
  readonly context: PulsarBrokerContext;
  readonly #sink: ConnectionSink;
  /** The protocol version both sides speak (set by CONNECT). */
  protocolVersion = 0;
  #closed = false;
  /** Requests received and not answered yet (never below 0). */
  #owedReplies = 0;
  readonly #whenAnswered: (() => void)[] = [];

  constructor(context: PulsarBrokerContext, sink: ConnectionSink) {
    this.context = context;
    this.#sink = sink;
  }

  /** True once the connection closed: nothing is written any more. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Writes a command frame (nothing once the connection is closed). */
  send(command: PulsarCommand): void {
    if (this.#closed) return;
    this.#sink.write([encodeCommandFrame(command)]);
    if (REPLY_TYPES.has(command.type)) this.#answered();
  }

  /** Writes a payload command followed by `entry`, uncopied. */
  sendWithEntry(command: PulsarCommand, entry: Uint8Array): void {
    if (!this.#closed) this.#sink.write([encodePayloadFrameHead(command, entry.length), entry]);
  }

  /** Counts one received request the connection answers with one reply. */
  expectReply(): void {
    this.#owedReplies += 1;
  }

  /** Uncounts a received request that gets no reply after all (it broke the protocol). */
  forgetReply(): void {
    this.#answered();
  }

  /** Settles once every request counted so far was answered, the connection closed, or `timeoutMs` passed. */
  repliesWritten(timeoutMs: number): Promise<void> {
    if (this.#owedReplies === 0 || this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#whenAnswered.push(done);
    });
  }

  /** Asks the listener to close the socket. */
  closeSocket(reason: string): void {
    if (!this.#closed) this.#sink.close(reason);
  }

  /** Marks the connection closed (idempotent). */
  close(): void {
    this.#closed = true;
    this.#settleWaiters();
  }

  #answered(): void {
    if (this.#owedReplies === 0) return;
    this.#owedReplies -= 1;
    if (this.#owedReplies === 0) this.#settleWaiters();
  }

  #settleWaiters(): void {
    for (const done of this.#whenAnswered.splice(0)) done();
  }
}
