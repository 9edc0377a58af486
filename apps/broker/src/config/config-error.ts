// A configuration the broker cannot start with: one line naming every bad field and where its value came from.
// Start-up reports it as `nereus: cannot start: <message>` with exit code 2.

/** A bad configuration: `message` is one line naming every bad field. */
export class ConfigError extends Error {
  override readonly name: string = "ConfigError";
}
