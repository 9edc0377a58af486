// Loopback port handling: pick free ports by binding to port 0, check a requested port is free, and probe
// whether something accepts connections on a port. Everything here talks to 127.0.0.1 only.
import net from "node:net";
import { ServiceStartError } from "./errors.js";

/** The only host the harness binds or connects to. */
export const LOOPBACK = "127.0.0.1";

function listenOn(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen({ host: LOOPBACK, port, exclusive: true }, () => resolve(server));
  });
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Returns `count` distinct ports that were free on 127.0.0.1 a moment ago. All probe sockets are held open
 * together, so the ports differ from each other.
 */
export async function allocatePorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listenOn(0));
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map(close));
  }
}

/** Throws a one-line {@link ServiceStartError} when `port` cannot be bound on 127.0.0.1. */
export async function assertPortFree(service: string, port: number, what = "port"): Promise<void> {
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new ServiceStartError(service, `${what} ${String(port)} is not a valid TCP port`);
  }
  let server: net.Server;
  try {
    server = await listenOn(port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    const reason =
      code === "EADDRINUSE"
        ? "is already in use"
        : code === "EACCES"
          ? "needs privileges"
          : `cannot be bound (${code})`;
    throw new ServiceStartError(service, `${what} ${LOOPBACK}:${port} ${reason}`);
  }
  await close(server);
}

/** True when something accepts a TCP connection on 127.0.0.1:`port` within `timeoutMs`. */
export function isPortOpen(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: LOOPBACK, port });
    const done = (open: boolean): void => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}
