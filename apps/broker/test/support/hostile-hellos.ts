// Hostile openings of a TLS connection for the TLS tests: random bytes, TLS records whose ClientHello is cut short,
// records claiming 16 KiB and ending early, plaintext where a ClientHello belongs. `sendHostileHellos` sends a
// number of them to a port in bounded waves and reports, per connection, whether the server closed it within a
// bound and how many bytes it answered.
import { randomBytes, randomInt } from "node:crypto";
import net from "node:net";

/** What one hostile connection saw. */
export interface HostileOutcome {
  readonly closedByServer: boolean;
  readonly answeredBytes: number;
}

/** A hostile opening of a TLS connection, chosen by `index`; `plaintext` is what a non-TLS client would send. */
export function hostileHello(index: number, plaintext: Uint8Array): Buffer {
  const body = randomBytes(randomInt(0, 600));
  switch (index % 5) {
    case 0:
      return body;
    case 1: {
      const hello = Buffer.concat([Buffer.from([0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]), body]);
      const header = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]);
      return Buffer.concat([header, hello]).subarray(0, randomInt(1, 5 + hello.length));
    }
    case 2:
      return Buffer.concat([Buffer.from([0x16, 0x03, 0x03, 0x40, 0x00]), body.subarray(0, 40)]);
    case 3:
      return Buffer.from(plaintext);
    default:
      return Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x00, 0x30, 0x02, 0x00, 0x00, 0x2c]), body.subarray(0, 44)]);
  }
}

/** Sends `bytes` to `port`, stops sending, and waits (at most `timeoutMs`) for the server to close the socket. */
function probe(port: number, bytes: Buffer, timeoutMs: number): Promise<HostileOutcome> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let answeredBytes = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closedByServer: false, answeredBytes });
    }, timeoutMs);
    socket.on("data", (chunk: Buffer) => (answeredBytes += chunk.length));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ closedByServer: true, answeredBytes });
    });
    socket.on("connect", () => socket.end(bytes));
  });
}

/** Sends `count` hostile hellos to `port`, `wave` at a time. */
export async function sendHostileHellos(
  port: number,
  count: number,
  plaintext: Uint8Array,
  wave = 100,
  timeoutMs = 20_000,
): Promise<HostileOutcome[]> {
  const outcomes: HostileOutcome[] = [];
  for (let start = 0; start < count; start += wave) {
    const batch = Array.from({ length: Math.min(wave, count - start) }, (_, offset) =>
      probe(port, hostileHello(start + offset, plaintext), timeoutMs),
    );
    outcomes.push(...(await Promise.all(batch)));
  }
  return outcomes;
}
