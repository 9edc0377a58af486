// Transport semantics of BookieConnection against a loopback TCP peer that speaks the v3 framing: correlation
// by txnId with out-of-order answers, coalesced writes, deadlines, connection loss and reconnect. Bookie
// behaviour itself is covered by the integration tests against real bookies.
import net from "node:net";
import { ErrorCode } from "@nereus/core";
import { afterEach, describe, expect, it } from "vitest";
import type { BookieRequest } from "../protocol/bookie-messages.js";
import { FrameDecoder } from "../protocol/frame-decoder.js";
import { OperationType } from "../protocol/operation-type.js";
import { decodeRequest } from "../protocol/request-codec.js";
import { encodeResponse } from "../protocol/response-codec.js";
import { BookieConnection } from "./bookie-connection.js";

interface Peer {
  readonly port: number;
  readonly requests: BookieRequest[];
  readonly reads: number[];
  answer(request: BookieRequest): void;
  dropConnections(): void;
  close(): Promise<void>;
}

const peers: Peer[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

async function startPeer(onRequest: (peer: Peer, request: BookieRequest) => void): Promise<Peer> {
  const sockets = new Set<net.Socket>();
  const requests: BookieRequest[] = [];
  const reads: number[] = [];
  let current: net.Socket | undefined;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    current = socket;
    const decoder = new FrameDecoder();
    socket.on("data", (chunk: Buffer) => {
      reads.push(chunk.length);
      for (const frame of decoder.push(new Uint8Array(chunk))) {
        const request = decodeRequest(frame);
        requests.push(request);
        onRequest(peer, request);
      }
    });
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const peer: Peer = {
    port: (server.address() as net.AddressInfo).port,
    requests,
    reads,
    answer(request) {
      const body = request.body;
      if (body.type !== "add") throw new Error("peer answers adds only");
      const payload = encodeResponse({
        operation: OperationType.ADD_ENTRY,
        txnId: request.txnId,
        status: 0,
        addResponse: { status: 0, ledgerId: body.ledgerId, entryId: body.entryId },
      });
      const frame = Buffer.alloc(4 + payload.length);
      frame.writeUInt32BE(payload.length, 0);
      frame.set(payload, 4);
      current?.write(frame);
    },
    dropConnections() {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  peers.push(peer);
  return peer;
}

const add = (entryId: number) => ({
  type: "add" as const,
  ledgerId: 1n,
  entryId,
  masterKey: new Uint8Array(20),
  body: [new Uint8Array(100)],
});

describe("BookieConnection", () => {
  it("matches out-of-order answers to their requests by txnId and coalesces same-tick writes", async () => {
    const held: BookieRequest[] = [];
    const peer = await startPeer((self, request) => {
      held.push(request);
      if (held.length === 10) for (const waiting of held.reverse()) self.answer(waiting);
    });
    const connection = new BookieConnection("peer", { host: "127.0.0.1", port: peer.port });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, entryId) => connection.send(add(entryId))));
    expect(answers.map((answer) => answer.addResponse?.entryId)).toEqual(
      Array.from({ length: 10 }, (_, entryId) => entryId),
    );
    expect(new Set(peer.requests.map((request) => request.txnId)).size).toBe(10);
    expect(peer.reads.length).toBeLessThan(10); // one vectored write for the whole batch, not one per request
    await connection.close();
  });

  it("times out unanswered requests and stays usable", async () => {
    const peer = await startPeer((self, request) => {
      if (request.body.type === "add" && request.body.entryId !== 0) self.answer(request);
    });
    const connection = new BookieConnection("peer", { host: "127.0.0.1", port: peer.port }, { requestTimeoutMs: 150 });
    const started = performance.now();
    await expect(connection.send(add(0))).rejects.toMatchObject({ code: ErrorCode.TIMEOUT, retryable: true });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect((await connection.send(add(1))).addResponse?.entryId).toBe(1);
    expect(connection.inFlight).toBe(0);
    await connection.close();
  });

  it("fails in-flight requests retryably when the connection drops, then reconnects", async () => {
    const peer = await startPeer((self, request) => {
      if (request.body.type === "add" && request.body.entryId === 0) self.dropConnections();
      else self.answer(request);
    });
    const connection = new BookieConnection("peer", { host: "127.0.0.1", port: peer.port });
    await expect(connection.send(add(0))).rejects.toMatchObject({
      code: ErrorCode.PRIMARY_WAL_WRITE_FAILED,
      retryable: true,
    });
    expect((await connection.send(add(1))).addResponse?.entryId).toBe(1);
    await connection.close();
    await expect(connection.send(add(2))).rejects.toMatchObject({ code: ErrorCode.STORAGE_CLOSED });
  });

  it("fails fast with a retryable error when nothing listens", async () => {
    const peer = await startPeer(() => undefined);
    const port = peer.port;
    await peer.close();
    const connection = new BookieConnection("gone", { host: "127.0.0.1", port });
    await expect(connection.send(add(0))).rejects.toMatchObject({
      code: ErrorCode.PRIMARY_WAL_WRITE_FAILED,
      retryable: true,
      details: { errno: "ECONNREFUSED" },
    });
    await expect(connection.send({ type: "readLac", ledgerId: 1n })).rejects.toMatchObject({
      code: ErrorCode.PRIMARY_WAL_READ_FAILED,
      retryable: true,
    });
  });

  it("rejects at once when the caller's signal is already aborted", async () => {
    const peer = await startPeer(() => undefined);
    const connection = new BookieConnection("peer", { host: "127.0.0.1", port: peer.port });
    await expect(connection.send(add(0), { signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: ErrorCode.CANCELLED,
    });
    await connection.close();
  });
});
