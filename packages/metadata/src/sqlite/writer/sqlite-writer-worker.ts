// The program of the SQLite store's writer thread, started by SqliteWriterThread (../sqlite-writer-thread.ts) and
// built as an entry of its own. It owns the store's only writing connection (writer-rounds.ts runs the rounds) and
// speaks the messages of sqlite-writer-protocol.ts. Operations queue in submission order; a round takes, from the
// front, the first one and those after it whose durability gates have settled (writer-gates.ts), so everything
// sent while the previous round ran (or synced) commits together; a close closes the connection once the
// operations received before it are done.
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import type { SubmittedOperation, WriterReply, WriterRequest, WriterThreadData } from "./sqlite-writer-protocol.js";
import { readyCount } from "./writer-gates.js";
import { WriterRounds } from "./writer-rounds.js";

if (parentPort === null)
  throw new Error("sqlite-writer-worker runs as a worker thread (started by SqliteWriterThread)");
const port = parentPort;
const data = workerData as WriterThreadData;
const post = (reply: WriterReply): void => port.postMessage(reply);
const rounds = new WriterRounds(new Database(data.path), data, () => post({ kind: "seam" }));

/** Operations received and not run yet, in submission order; rounds take them from the front. */
const queue: SubmittedOperation[] = [];
let closing = false;

/** Moves every message waiting on the port into `queue` (nothing after a close); `first`: one the port delivered. */
function receiveWaiting(first: WriterRequest | undefined): void {
  if (closing) return;
  const waiting = first === undefined ? receiveMessageOnPort(port) : undefined;
  let message = waiting === undefined ? first : (waiting.message as WriterRequest);
  while (message !== undefined) {
    if (message.kind === "close") closing = true;
    else for (const operation of message.operations) queue.push(operation);
    if (closing) break;
    message = receiveMessageOnPort(port)?.message as WriterRequest | undefined;
  }
}

function close(): void {
  try {
    rounds.close();
  } finally {
    post({ kind: "closed" });
  }
}

port.on("message", (first: WriterRequest) => {
  receiveWaiting(first);
  while (queue.length > 0) {
    post({ kind: "round", round: rounds.run(queue.splice(0, readyCount(queue))) });
    receiveWaiting(undefined);
  }
  if (closing) close();
});
post({ kind: "ready" });
