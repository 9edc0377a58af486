// The SCRAM mechanisms Kafka defines (RFC 5802 with SHA-256 per RFC 7677, and SHA-512): their SASL names, the type
// numbers the credential APIs use on the wire, the hash and its output size, and the iteration bounds Kafka accepts.

/** SASL names of the SCRAM mechanisms. */
export type ScramMechanismName = "SCRAM-SHA-256" | "SCRAM-SHA-512";

/** One SCRAM mechanism. Invariant: `keyBytes` is the output size of `hash`. */
export interface ScramMechanism {
  readonly name: ScramMechanismName;
  /** The mechanism's number in DescribeUserScramCredentials / AlterUserScramCredentials. */
  readonly type: 1 | 2;
  /** node:crypto hash name. */
  readonly hash: "sha256" | "sha512";
  readonly keyBytes: 32 | 64;
  /** Fewest PBKDF2 iterations a credential may use (Kafka: 4096). */
  readonly minIterations: number;
  /** Most PBKDF2 iterations a credential may use (Kafka: 16384). */
  readonly maxIterations: number;
}

/** SCRAM-SHA-256 and SCRAM-SHA-512, by type. */
const SCRAM_MECHANISMS: readonly ScramMechanism[] = Object.freeze([
  { name: "SCRAM-SHA-256", type: 1, hash: "sha256", keyBytes: 32, minIterations: 4096, maxIterations: 16384 },
  { name: "SCRAM-SHA-512", type: 2, hash: "sha512", keyBytes: 64, minIterations: 4096, maxIterations: 16384 },
]);

/** The mechanism named `name`, or undefined. */
export function scramMechanismNamed(name: string): ScramMechanism | undefined {
  return SCRAM_MECHANISMS.find((mechanism) => mechanism.name === name);
}

/** The mechanism with wire number `type`, or undefined (0 is Kafka's UNKNOWN). */
export function scramMechanismOfType(type: number): ScramMechanism | undefined {
  return SCRAM_MECHANISMS.find((mechanism) => mechanism.type === type);
}
