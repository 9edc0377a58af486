// One error type for everything the baseline tooling cannot do, with a one-line message that names what is
// missing or what failed (and where the logs are), so a test or benchmark failure reads as one clear line.

/** A failure of the baseline tooling: `<tool>: <what>: <reason>` (tool "kafka-baseline" unless named). */
export class BaselineError extends Error {
  override readonly name: string = "BaselineError";
  /** What failed: "java", "javac", "maven", "apache-kafka", "nereus-broker", "driver", ... */
  readonly what: string;

  constructor(what: string, reason: string, options?: { cause?: unknown; tool?: string }) {
    super(`${options?.tool ?? "kafka-baseline"}: ${what}: ${oneLine(reason)}`, options);
    this.what = what;
  }
}

/** Collapses whitespace (including newlines) so a message stays on one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The message of any thrown value. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
