// The broker's structured logs, written by pino: one JSON object per line — {"level","ts","msg", ...fields} — on
// stdout by default, synchronously (lines never interleave and none is lost when the process exits), or
// human-readable through pino-pretty when stdout is a terminal (`log.format` "auto", the default) or when asked
// ("pretty"). Fields pass through log-fields.ts: errors keep their stack, code and causes, secret-looking values are
// redacted, and no field can overwrite ts, level or msg. Below the configured level pino does not format anything.
// The Kafka adapter's KafkaBrokerLogger has the same shape, so this logger is passed to it as is.
import { pino, type DestinationStream, type Logger } from "pino";
import { prettyFactory } from "pino-pretty";
import { logFields } from "./log-fields.js";

/** A structured logger: one message plus fields per event. */
export interface BrokerLogger {
  debug(message: string, fields?: Readonly<Record<string, unknown>>): void;
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

export type LogLevel = "debug" | "info" | "warn" | "error";

/** "json" lines, "pretty" text, or "auto": pretty when the output is a terminal. */
export type LogFormat = "auto" | "json" | "pretty";

/** Where lines go instead of stdout (an array in tests); each write is one line ending in "\n". */
export interface LogSink {
  write(line: string): unknown;
}

export interface BrokerLoggerOptions {
  readonly level?: LogLevel;
  readonly format?: LogFormat;
  /** Default: stdout. */
  readonly sink?: LogSink;
  /** Time source of the `ts` field (tests). */
  readonly clock?: () => number;
}

/** pino-pretty's formatting applied synchronously, line by line, in this thread. */
function prettyLines(target: LogSink, colorize: boolean): DestinationStream {
  const prettify = prettyFactory({ colorize, timestampKey: "ts", translateTime: "SYS:yyyy-mm-dd HH:MM:ss.l" });
  return { write: (line: string) => target.write(prettify(line)) };
}

function destination(options: BrokerLoggerOptions): DestinationStream {
  const tty = options.sink === undefined && process.stdout.isTTY;
  const format = options.format ?? "auto";
  if (format === "pretty" || (format === "auto" && tty)) return prettyLines(options.sink ?? process.stdout, tty);
  return options.sink ?? pino.destination({ dest: 1, sync: true });
}

/** The broker's logger (see the module header). */
export class PinoBrokerLogger implements BrokerLogger {
  readonly #pino: Logger;

  constructor(options: BrokerLoggerOptions = {}) {
    const clock = options.clock ?? Date.now;
    this.#pino = pino(
      {
        level: options.level ?? "info",
        base: null,
        messageKey: "msg",
        timestamp: () => `,"ts":"${new Date(clock()).toISOString()}"`,
        formatters: { level: (label) => ({ level: label }) },
      },
      destination(options),
    );
  }

  debug(message: string, fields?: Readonly<Record<string, unknown>>): void {
    if (this.#pino.isLevelEnabled("debug")) this.#pino.debug(logFields(fields ?? {}), message);
  }

  info(message: string, fields?: Readonly<Record<string, unknown>>): void {
    if (this.#pino.isLevelEnabled("info")) this.#pino.info(logFields(fields ?? {}), message);
  }

  warn(message: string, fields?: Readonly<Record<string, unknown>>): void {
    if (this.#pino.isLevelEnabled("warn")) this.#pino.warn(logFields(fields ?? {}), message);
  }

  error(message: string, fields?: Readonly<Record<string, unknown>>): void {
    if (this.#pino.isLevelEnabled("error")) this.#pino.error(logFields(fields ?? {}), message);
  }
}
