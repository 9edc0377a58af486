// Structured logs: one JSON object per line — {"ts","level","msg", ...fields} — written synchronously to a
// stream (stdout by default) so lines never interleave. Errors in fields become {name, message, code, stack,
// cause} (causes followed three deep). Below
// the configured level nothing is formatted. Structurally the Kafka broker's logger (KafkaBrokerLogger).

/** A structured logger: one message plus fields per event. */
export interface BrokerLogger {
  debug(message: string, fields?: Readonly<Record<string, unknown>>): void;
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

export type LogLevel = "debug" | "info" | "warn" | "error";

const RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Where lines go (process.stdout, or an array in tests). */
export interface LogSink {
  write(line: string): unknown;
}

function serializeError(error: Error, depth: number): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  const cause = error.cause;
  return {
    name: error.name,
    message: error.message,
    ...(code === undefined ? {} : { code }),
    ...(error.stack === undefined ? {} : { stack: error.stack }),
    ...(cause === undefined || depth >= 3
      ? {}
      : { cause: cause instanceof Error ? serializeError(cause, depth + 1) : String(cause) }),
  };
}

function serialize(value: unknown): unknown {
  if (value instanceof Error) return serializeError(value, 0);
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** A leveled JSON-lines logger. */
export class JsonLogger implements BrokerLogger {
  readonly #level: number;
  readonly #sink: LogSink;
  readonly #base: Readonly<Record<string, unknown>>;
  readonly #clock: () => number;

  constructor(
    options: { level?: LogLevel; sink?: LogSink; base?: Readonly<Record<string, unknown>>; clock?: () => number } = {},
  ) {
    this.#level = RANK[options.level ?? "info"];
    this.#sink = options.sink ?? process.stdout;
    this.#base = options.base ?? {};
    this.#clock = options.clock ?? Date.now;
  }

  /** A logger writing to the same sink with extra fields on every line. */
  child(fields: Readonly<Record<string, unknown>>): JsonLogger {
    return new JsonLogger({
      level: levelOf(this.#level),
      sink: this.#sink,
      base: { ...this.#base, ...fields },
      clock: this.#clock,
    });
  }

  debug(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.#write("debug", message, fields);
  }

  info(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.#write("info", message, fields);
  }

  warn(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.#write("warn", message, fields);
  }

  error(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.#write("error", message, fields);
  }

  #write(level: LogLevel, message: string, fields: Readonly<Record<string, unknown>> | undefined): void {
    if (RANK[level] < this.#level) return;
    const entry: Record<string, unknown> = {
      ts: new Date(this.#clock()).toISOString(),
      level,
      msg: message,
      ...this.#base,
    };
    if (fields !== undefined) for (const [key, value] of Object.entries(fields)) entry[key] = serialize(value);
    let line: string;
    try {
      line = JSON.stringify(entry);
    } catch {
      line = JSON.stringify({ ts: entry.ts, level, msg: message, note: "fields were not serializable" });
    }
    this.#sink.write(`${line}\n`);
  }
}

function levelOf(rank: number): LogLevel {
  return (Object.entries(RANK).find(([, value]) => value === rank)?.[0] as LogLevel | undefined) ?? "info";
}
