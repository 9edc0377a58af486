// Start failures of the service harness: one line that names the failing service or prerequisite, with the
// service's log file and its last lines kept beside the message (printed after it, never instead of it).

/** Options for {@link ServiceStartError}. */
export interface ServiceStartErrorOptions {
  /** Log file of the process that failed, kept on disk for inspection. */
  readonly logFile?: string | undefined;
  /** Last lines of that log file. */
  readonly logTail?: string | undefined;
  readonly cause?: unknown;
}

/**
 * A service (or one of its prerequisites: java, mvn, an etcd binary, Maven Central, a port) could not be started.
 * `message` is always one line; `service` names what failed ("etcd", "s3", "zookeeper", "bookkeeper", "maven",
 * "harness").
 */
export class ServiceStartError extends Error {
  override readonly name = "ServiceStartError";
  readonly service: string;
  readonly logFile: string | undefined;
  readonly logTail: string | undefined;

  constructor(service: string, message: string, options: ServiceStartErrorOptions = {}) {
    super(oneLine(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.service = service;
    this.logFile = options.logFile;
    this.logTail = options.logTail;
  }

  /** The single line a CLI prints: `[service] message`. */
  line(): string {
    return `[${this.service}] ${this.message}`;
  }

  /** The line, then (when a process log exists) its path and its last lines. */
  detail(): string {
    if (this.logTail === undefined && this.logFile === undefined) return this.line();
    const head = this.logFile === undefined ? "last log lines:" : `last lines of ${this.logFile}:`;
    const tail = (this.logTail ?? "")
      .split("\n")
      .map((l) => `  | ${l}`)
      .join("\n");
    return `${this.line()}\n${head}\n${tail}`;
  }
}

/** Collapses whitespace runs containing newlines so a message can never span several lines. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}

/** Wraps anything thrown into a {@link ServiceStartError} for `service`, keeping an existing one as is. */
export function asServiceStartError(service: string, error: unknown): ServiceStartError {
  if (error instanceof ServiceStartError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ServiceStartError(service, message, { cause: error });
}
