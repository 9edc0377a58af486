// One error type for what the Pulsar baseline tooling cannot do (a missing tool or jar, a broker that does not
// start, a driver run that fails), with a one-line message naming what failed and where its log is.

/** A failure of the Pulsar baseline tooling: `pulsar-baseline: <what>: <reason>`. */
export class PulsarBaselineError extends Error {
  override readonly name = "PulsarBaselineError";
  /** What failed: "maven", "javac", "apache-pulsar", "nereus-broker", "probe", "driver", ... */
  readonly what: string;

  constructor(what: string, reason: string, options?: { cause?: unknown }) {
    super(`pulsar-baseline: ${what}: ${reason.replace(/\s+/g, " ").trim()}`, options);
    this.what = what;
  }
}

/** The message of any thrown value. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
