// Admission of new TCP connections: at most `maxConnections` open at once on a listener and at most
// `maxConnectionsPerIp` from one remote address (Kafka's max.connections and max.connections.per.ip). A refused
// connection is closed at once, before any byte of it is read (the listener counts refusals and logs them through a
// RateLimitedLog, so a connection flood cannot flood the log).

/** Why a connection was refused. */
export type AdmissionRefusal = "broker-limit" | "ip-limit";

export interface ConnectionAdmissionOptions {
  readonly maxConnections: number;
  readonly maxConnectionsPerIp: number;
}

/** Counts open connections per remote address. */
export class ConnectionAdmission {
  readonly limits: ConnectionAdmissionOptions;
  readonly #perIp = new Map<string, number>();
  #open = 0;

  constructor(limits: ConnectionAdmissionOptions) {
    this.limits = { maxConnections: limits.maxConnections, maxConnectionsPerIp: limits.maxConnectionsPerIp };
  }

  get openConnections(): number {
    return this.#open;
  }

  /** Admits a connection from `ip` (and counts it), or names the limit it would break. */
  admit(ip: string): AdmissionRefusal | undefined {
    if (this.#open >= this.limits.maxConnections) return "broker-limit";
    const fromIp = this.#perIp.get(ip) ?? 0;
    if (fromIp >= this.limits.maxConnectionsPerIp) return "ip-limit";
    this.#perIp.set(ip, fromIp + 1);
    this.#open += 1;
    return undefined;
  }

  /** Forgets one admitted connection from `ip`. */
  release(ip: string): void {
    const fromIp = this.#perIp.get(ip) ?? 0;
    if (fromIp <= 1) this.#perIp.delete(ip);
    else this.#perIp.set(ip, fromIp - 1);
    this.#open = Math.max(0, this.#open - 1);
  }
}
