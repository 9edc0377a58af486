// What the command handlers of one connection share: the broker context, and the frames they write to the client.
import { type PulsarCommand, encodeCommandFrame, encodePayloadFrameHead } from "../protocol/index.js";
import type { PulsarBrokerContext } from "./pulsar-broker.js";

/** Where a connection's frames go (the listener's socket). */
export interface ConnectionSink {
  /** Writes the parts of one frame, in order. */
  write(parts: readonly Uint8Array[]): void;
  /** The connection is over (a protocol violation, or closed): close the socket after what was written. */
  close(reason: string): void;
}

/** The writing side of one connection, for its handlers. */
export class ConnectionIo {
  readonly context: PulsarBrokerContext;
  readonly #sink: ConnectionSink;
  /** The protocol version both sides speak (set by CONNECT). */
  protocolVersion = 0;
  closed = false;

  constructor(context: PulsarBrokerContext, sink: ConnectionSink) {
    this.context = context;
    this.#sink = sink;
  }

  /** Writes a command frame (nothing once the connection is closed). */
  send(command: PulsarCommand): void {
    if (!this.closed) this.#sink.write([encodeCommandFrame(command)]);
  }

  /** Writes a payload command followed by `entry`, uncopied. */
  sendWithEntry(command: PulsarCommand, entry: Uint8Array): void {
    if (!this.closed) this.#sink.write([encodePayloadFrameHead(command, entry.length), entry]);
  }

  /** Asks the listener to close the socket. */
  closeSocket(reason: string): void {
    if (!this.closed) this.#sink.close(reason);
  }
}
