// One TCP connection to one bookie speaking the v3 protocol: length-framed protobuf requests, responses matched
// by txnId (bookies may answer out of order), a deadline per request, and a fresh connection on the next request
// after the previous one broke. Request bodies are written by reference (vectored write); response byte fields
// are views into their own frame. Nothing here interprets statuses — BookieClient does.
import net from "node:net";
import { ErrorCode, NereusError } from "@nereus/core";
import { abortError, mapBookieTransportError, type BookieOperationKind } from "../errors/map-bookie-error.js";
import type { BookieAddress } from "../metadata/bookie-registry.js";
import type { BookieRequestBody, BookieResponse } from "../protocol/bookie-messages.js";
import { DEFAULT_MAX_FRAME_SIZE, FrameDecoder } from "../protocol/frame-decoder.js";
import { encodeRequestFrame, operationOf } from "../protocol/request-codec.js";
import { decodeResponse } from "../protocol/response-codec.js";

/** Connection tuning. */
export interface BookieConnectionOptions {
  /** TCP connect deadline (default 5 000 ms). */
  readonly connectTimeoutMs?: number;
  /** Deadline of one request when the caller's signal does not end it sooner (default 10 000 ms). */
  readonly requestTimeoutMs?: number;
  /** Largest response frame accepted (default 5 MiB, the bookie's own limit). */
  readonly maxFrameSize?: number;
}

export interface BookieSendOptions {
  readonly signal?: AbortSignal;
  /** Packet-header priority (recovery traffic uses a higher one). */
  readonly priority?: number;
}

interface Pending {
  readonly operation: number;
  /** `performance.now()` after which the request times out. */
  readonly deadline: number;
  readonly timeoutMessage: string;
  readonly resolve: (response: BookieResponse) => void;
  readonly reject: (error: NereusError) => void;
}

interface Live {
  readonly socket: net.Socket;
  readonly decoder: FrameDecoder;
}

/** Reads `aborted` afresh (a call, so flow analysis does not keep an earlier narrowing across an await). */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

function kindOf(body: BookieRequestBody): BookieOperationKind {
  return body.type === "add" || body.type === "writeLac" ? "write" : "read";
}

/**
 * A multiplexed request/response channel to one bookie.
 *
 * Invariants: every `send` settles exactly once — with the response carrying its txnId, or with an error when the
 * deadline passes, the signal aborts, or the connection breaks (all retryable transport errors; the request may
 * or may not have been executed). Requests are written in call order. After `close()` sends reject with
 * STORAGE_CLOSED.
 */
export class BookieConnection {
  readonly bookieId: string;
  readonly #address: BookieAddress;
  readonly #connectTimeoutMs: number;
  readonly #requestTimeoutMs: number;
  readonly #maxFrameSize: number;
  readonly #pending = new Map<bigint, Pending>();
  #live: Live | undefined;
  #connecting: Promise<Live> | undefined;
  #nextTxnId = 1n;
  #closed = false;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #corked: net.Socket | undefined;

  constructor(bookieId: string, address: BookieAddress, options: BookieConnectionOptions = {}) {
    this.bookieId = bookieId;
    this.#address = address;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.#maxFrameSize = options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
  }

  /** Requests written and not yet answered. */
  get inFlight(): number {
    return this.#pending.size;
  }

  #connect(): Promise<Live> {
    if (this.#live !== undefined) return Promise.resolve(this.#live);
    if (this.#connecting !== undefined) return this.#connecting;
    const connecting = new Promise<Live>((resolve, reject) => {
      const socket = net.connect({ host: this.#address.host, port: this.#address.port, noDelay: true });
      const timer = setTimeout(
        () =>
          socket.destroy(
            Object.assign(new Error(`connect timed out after ${String(this.#connectTimeoutMs)} ms`), {
              code: "ETIMEDOUT",
            }),
          ),
        this.#connectTimeoutMs,
      );
      const onConnectError = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      socket.once("error", onConnectError);
      socket.once("connect", () => {
        clearTimeout(timer);
        socket.off("error", onConnectError);
        socket.setKeepAlive(true, 10_000);
        const live: Live = { socket, decoder: new FrameDecoder(this.#maxFrameSize) };
        socket.on("data", (chunk: Buffer) => this.#onData(live, chunk));
        socket.on("error", (error) => this.#onBroken(live, error));
        socket.on("close", () =>
          this.#onBroken(live, Object.assign(new Error("connection closed by the bookie"), { code: "ECONNRESET" })),
        );
        if (this.#closed) {
          socket.destroy();
          reject(new NereusError(ErrorCode.STORAGE_CLOSED, `connection to bookie ${this.bookieId} is closed`));
          return;
        }
        this.#live = live;
        resolve(live);
      });
    });
    this.#connecting = connecting;
    const clear = () => {
      if (this.#connecting === connecting) this.#connecting = undefined;
    };
    connecting.then(clear, clear);
    return connecting;
  }

  #onData(live: Live, chunk: Buffer): void {
    let frames: Uint8Array[];
    try {
      frames = live.decoder.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    } catch (error) {
      live.socket.destroy(error as Error);
      return;
    }
    for (const frame of frames) {
      let response: BookieResponse;
      try {
        response = decodeResponse(frame);
      } catch (error) {
        live.socket.destroy(error as Error);
        return;
      }
      const pending = this.#pending.get(response.txnId);
      if (pending === undefined) continue; // Answer to a request that already timed out or was aborted.
      this.#pending.delete(response.txnId);
      if (response.operation !== pending.operation) {
        pending.reject(
          new NereusError(
            ErrorCode.DECODE_ERROR,
            `bookie ${this.bookieId} answered txn ${String(response.txnId)} with operation ${String(response.operation)}`,
          ),
        );
      } else {
        pending.resolve(response);
      }
    }
  }

  #onBroken(live: Live, cause: Error): void {
    if (this.#live !== live) return;
    this.#live = undefined;
    live.socket.destroy();
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.#stopDeadlineTimer();
    for (const entry of pending) {
      entry.reject(
        mapBookieTransportError(
          cause,
          entry.operation === 2 || entry.operation === 6 ? "write" : "read",
          { bookieId: this.bookieId },
          "connection lost",
        ),
      );
    }
  }

  /** Sends one request and waits for its response. */
  async send(body: BookieRequestBody, options: BookieSendOptions = {}): Promise<BookieResponse> {
    if (this.#closed)
      throw new NereusError(ErrorCode.STORAGE_CLOSED, `connection to bookie ${this.bookieId} is closed`);
    const signal = options.signal;
    const what = `${body.type} request to bookie ${this.bookieId}`;
    if (signal?.aborted === true) throw abortError(signal, what);
    let live: Live;
    try {
      live = this.#live ?? (await this.#connect());
    } catch (error) {
      throw mapBookieTransportError(error, kindOf(body), { bookieId: this.bookieId }, "connect failed");
    }
    if (signal !== undefined && isAborted(signal)) throw abortError(signal, what);
    const txnId = this.#nextTxnId;
    this.#nextTxnId += 1n;
    const operation = operationOf(body);
    return new Promise<BookieResponse>((resolve, reject) => {
      const onAbort =
        signal === undefined
          ? undefined
          : () => {
              if (this.#pending.delete(txnId))
                reject(
                  mapBookieTransportError(
                    abortError(signal, what),
                    kindOf(body),
                    { bookieId: this.bookieId },
                    "request aborted",
                  ),
                );
            };
      if (signal !== undefined && onAbort !== undefined) signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(txnId, {
        operation,
        deadline: performance.now() + this.#requestTimeoutMs,
        timeoutMessage: `${what} timed out after ${String(this.#requestTimeoutMs)} ms`,
        resolve: (response) => {
          if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
          resolve(response);
        },
        reject: (error) => {
          if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      this.#deadlineTimer ??= setTimeout(() => this.#sweepDeadlines(), this.#requestTimeoutMs + 1);
      this.#write(
        live.socket,
        encodeRequestFrame({ txnId, ...(options.priority === undefined ? {} : { priority: options.priority }), body }),
      );
    });
  }

  /**
   * Writes a frame. Frames written in the same tick are coalesced into one vectored write (the socket stays corked
   * until the next tick), which is what keeps syscalls per add low under pipelining.
   */
  #write(socket: net.Socket, chunks: readonly Uint8Array[]): void {
    if (this.#corked !== socket) {
      this.#corked = socket;
      socket.cork();
      process.nextTick(() => {
        this.#corked = undefined;
        socket.uncork();
      });
    }
    for (const chunk of chunks) socket.write(chunk);
  }

  /** Times out requests past their deadline. Pending requests are in send order, so deadlines are ascending. */
  #sweepDeadlines(): void {
    this.#deadlineTimer = undefined;
    const now = performance.now();
    for (const [txnId, pending] of this.#pending) {
      if (pending.deadline > now) {
        this.#deadlineTimer = setTimeout(() => this.#sweepDeadlines(), Math.ceil(pending.deadline - now) + 1);
        return;
      }
      this.#pending.delete(txnId);
      const kind: BookieOperationKind = pending.operation === 2 || pending.operation === 6 ? "write" : "read";
      pending.reject(
        mapBookieTransportError(
          new NereusError(ErrorCode.TIMEOUT, pending.timeoutMessage, { retryable: true }),
          kind,
          { bookieId: this.bookieId },
          "request timed out",
        ),
      );
    }
  }

  #stopDeadlineTimer(): void {
    if (this.#deadlineTimer !== undefined) clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
  }

  /** Closes the socket (idempotent); outstanding requests reject as connection lost. */
  close(): Promise<void> {
    this.#closed = true;
    const live = this.#live;
    if (live !== undefined)
      this.#onBroken(live, Object.assign(new Error("connection closed by the client"), { code: "ECONNABORTED" }));
    return Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
