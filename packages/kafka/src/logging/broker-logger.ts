// The structured logger the broker writes to. The composition root passes its own (e.g. pino-like); the default
// drops everything. Fields are plain JSON-able values; messages never contain record payloads.

/** A structured logger: one message plus fields per event. */
export interface KafkaBrokerLogger {
  debug(message: string, fields?: Readonly<Record<string, unknown>>): void;
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** A logger that drops every event. */
export const SILENT_LOGGER: KafkaBrokerLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
