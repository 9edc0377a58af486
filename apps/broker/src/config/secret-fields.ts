// The secrets of the configuration — the S3 secret access key, the etcd password, the BookKeeper ledger password,
// admin bearer tokens, Kafka SASL passwords, the Pulsar token secret key, key passphrases — are never shown:
// `--print-config` writes them as "<redacted>", and a config error that names the flag or variable a bad value came
// from leaves a secret's value out. (Log lines redact secret-looking fields on their own: logging/log-fields.ts.)

/** Field, flag and variable names of secret settings. */
const SECRET_NAME = /secret|passw(or)?d|passphrase/i;

const REDACTED = "<redacted>";

/** A copy of `config` (JSON data) with the value of every secret field replaced. */
export function redactSecrets(config: unknown): unknown {
  return JSON.parse(
    JSON.stringify(config, (key, inner: unknown) =>
      SECRET_NAME.test(key) && typeof inner === "string" ? REDACTED : inner,
    ),
  ) as unknown;
}

/** `source` (`--flag=value`, `VARIABLE=value` or a file name) without the value when it sets a secret. */
export function redactSource(source: string): string {
  return SECRET_NAME.test(source.replace(/=.*$/, "")) ? source.replace(/=.*$/, `=${REDACTED}`) : source;
}
