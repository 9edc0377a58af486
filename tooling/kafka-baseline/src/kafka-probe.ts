// Readiness probe of a Kafka listener, written from the protocol grammar and independent of the broker under test:
// connect, send ApiVersions v0 (every broker answers it), then Metadata v4 (non-flexible, all topics, no
// auto-create). Ready = ApiVersions succeeded and Metadata lists at least one broker (a KRaft broker lists itself
// only once it is unfenced and serving).
import net from "node:net";

/** What a successful probe saw. */
export interface ProbeResult {
  /** Number of APIs in the ApiVersions answer. */
  readonly apiCount: number;
  /** Supported version range of each API key. */
  readonly apis: ReadonlyMap<number, { readonly min: number; readonly max: number }>;
  /** Brokers from Metadata (node id, host, port). */
  readonly brokers: readonly { readonly nodeId: number; readonly host: string; readonly port: number }[];
  readonly clusterId: string | null;
}

const API_VERSIONS = 18;
const METADATA = 3;
const CLIENT_ID = Buffer.from("nereus-baseline-probe", "utf8");

function request(apiKey: number, apiVersion: number, correlationId: number, body: Buffer): Buffer {
  const header = Buffer.alloc(2 + 2 + 4 + 2);
  header.writeInt16BE(apiKey, 0);
  header.writeInt16BE(apiVersion, 2);
  header.writeInt32BE(correlationId, 4);
  header.writeInt16BE(CLIENT_ID.length, 8);
  const size = Buffer.alloc(4);
  const frame = Buffer.concat([header, CLIENT_ID, body]);
  size.writeInt32BE(frame.length, 0);
  return Buffer.concat([size, frame]);
}

class Reader {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}
  int16(): number {
    const v = this.buf.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  int32(): number {
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  nullableString(): string | null {
    const len = this.int16();
    if (len < 0) return null;
    const v = this.buf.toString("utf8", this.pos, this.pos + len);
    this.pos += len;
    return v;
  }
  string(): string {
    return this.nullableString() ?? "";
  }
}

/** Sends `frames` and resolves with one response body (after the correlation id) per frame, in order. */
function exchange(host: string, port: number, frames: readonly Buffer[], timeoutMs: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const responses: Buffer[] = [];
    let pending = Buffer.alloc(0);
    let sent = 0;
    const timer = setTimeout(() => finish(new Error(`no answer within ${String(timeoutMs)} ms`)), timeoutMs);
    const finish = (error?: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      if (error !== undefined) reject(error);
      else resolve(responses);
    };
    const sendNext = (): void => {
      const frame = frames[sent];
      if (frame === undefined) return finish();
      sent += 1;
      socket.write(frame);
    };
    socket.once("connect", sendNext);
    socket.on("error", (error) => finish(error));
    socket.on("close", () => finish(new Error("connection closed before the answer")));
    socket.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const size = pending.readInt32BE(0);
        if (pending.length < 4 + size) return;
        responses.push(pending.subarray(8, 4 + size));
        pending = pending.subarray(4 + size);
        sendNext();
      }
    });
  });
}

/**
 * Probes `host:port` once.
 * @throws Error when the connection fails, an answer is missing or malformed, or the broker is not serving yet.
 */
export async function probeKafka(host: string, port: number, timeoutMs = 5_000): Promise<ProbeResult> {
  const [apiVersionsBody] = await exchange(host, port, [request(API_VERSIONS, 0, 1, Buffer.alloc(0))], timeoutMs);
  if (apiVersionsBody === undefined) throw new Error("no ApiVersions answer");
  const av = new Reader(apiVersionsBody);
  const errorCode = av.int16();
  if (errorCode !== 0) throw new Error(`ApiVersions error code ${String(errorCode)}`);
  const apis = new Map<number, { min: number; max: number }>();
  const count = av.int32();
  for (let i = 0; i < count; i++) {
    const key = av.int16();
    apis.set(key, { min: av.int16(), max: av.int16() });
  }
  const metadata = apis.get(METADATA);
  if (metadata === undefined || metadata.min > 4 || metadata.max < 4)
    throw new Error("the broker does not serve Metadata v4");
  // Metadata v4 request: topics = null (all), allow_auto_topic_creation = false.
  const body = Buffer.alloc(5);
  body.writeInt32BE(-1, 0);
  body.writeInt8(0, 4);
  const [metadataBody] = await exchange(host, port, [request(METADATA, 4, 2, body)], timeoutMs);
  if (metadataBody === undefined) throw new Error("no Metadata answer");
  const md = new Reader(metadataBody);
  md.int32(); // throttle_time_ms
  const brokers: { nodeId: number; host: string; port: number }[] = [];
  const brokerCount = md.int32();
  for (let i = 0; i < brokerCount; i++) {
    const nodeId = md.int32();
    const brokerHost = md.string();
    const brokerPort = md.int32();
    md.nullableString(); // rack
    brokers.push({ nodeId, host: brokerHost, port: brokerPort });
  }
  const clusterId = md.nullableString();
  if (brokers.length === 0) throw new Error("Metadata lists no broker yet");
  return { apiCount: count, apis, brokers, clusterId };
}

/**
 * Probes until the broker is ready, `isDead()` says the process is gone, or the deadline passes.
 * @returns the first successful probe.
 * @throws Error naming the last probe failure.
 */
export async function waitForKafka(
  host: string,
  port: number,
  options: { timeoutMs: number; isDead?: () => string | undefined },
): Promise<ProbeResult> {
  const deadline = Date.now() + options.timeoutMs;
  let last: string;
  for (;;) {
    const dead = options.isDead?.();
    if (dead !== undefined) throw new Error(dead);
    try {
      return await probeKafka(host, port, 3_000);
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline)
      throw new Error(`not ready within ${String(options.timeoutMs / 1000)} s (last probe: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
