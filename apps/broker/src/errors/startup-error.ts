// A failure to start, reported as one line on stderr (`nereus: cannot start: <message>`) with an exit code:
// 2 for a bad configuration, 1 for everything else (port in use, unreachable etcd/S3, unusable data directory).
export class StartupError extends Error {
  override readonly name = "StartupError";
  readonly exitCode: number;

  constructor(message: string, options: { cause?: unknown; exitCode?: number } = {}) {
    super(message.replace(/\s*\n\s*/g, " "), { cause: options.cause });
    this.exitCode = options.exitCode ?? 1;
  }
}

/** The one-line reason of `error` (its message without stack; NereusError codes included). */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const text = error.message.replace(/\s*\n\s*/g, " ");
    return typeof code === "string" && !text.includes(code) ? `${text} (${code})` : text;
  }
  return String(error);
}
