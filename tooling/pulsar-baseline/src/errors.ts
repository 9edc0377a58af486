// One error type for what the Pulsar baseline tooling cannot do (a missing tool or jar, a broker that does not
// start, a driver run that fails), with a one-line message naming what failed and where its log is.
import { BaselineError } from "@nereus/kafka-baseline";

/** A failure of the Pulsar baseline tooling: `pulsar-baseline: <what>: <reason>`. */
export class PulsarBaselineError extends BaselineError {
  override readonly name: string = "PulsarBaselineError";

  constructor(what: string, reason: string, options?: { cause?: unknown }) {
    super(what, reason, { ...options, tool: "pulsar-baseline" });
  }
}

/** The message of any thrown value. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
