// The SCRAM messages a Kafka server reads and writes (RFC 5802 §7): client-first, server-first, client-final and
// server-final, as UTF-8 text. Parsing is strict: a message that does not follow the grammar throws a
// ScramMessageError (the exchange then fails); nothing here checks credentials. Channel binding is not offered
// (no -PLUS mechanisms), so a client asking for it ("p=") is refused, as Kafka does.
import { ErrorCode, NereusError } from "@nereus/core";

/** A SCRAM message that does not follow the grammar. */
export class ScramMessageError extends NereusError {
  constructor(message: string) {
    super(ErrorCode.DECODE_ERROR, message, { retryable: false });
  }
}

/** The parts of a client-first message the server uses. */
export interface ClientFirstMessage {
  /** "n,," or "y,,"-style header up to and including its second comma, echoed in the client-final `c=`. */
  readonly gs2Header: string;
  /** The authorization id ("" when absent). */
  readonly authorizationId: string;
  /** The user name, unescaped. */
  readonly userName: string;
  readonly clientNonce: string;
  /** Extensions after the nonce (Kafka's `tokenauth=true`), by name. */
  readonly extensions: ReadonlyMap<string, string>;
  /** client-first-message-bare: the text after the gs2 header (part of the AuthMessage). */
  readonly bare: string;
}

/** The parts of a client-final message the server uses. */
export interface ClientFinalMessage {
  /** The `c=` value decoded. */
  readonly channelBinding: Uint8Array;
  readonly nonce: string;
  readonly proof: Uint8Array;
  /** client-final-message-without-proof (part of the AuthMessage). */
  readonly withoutProof: string;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
/** Printable ASCII except ',' (RFC 5802 `printable`). */
const NONCE = /^[\x21-\x2b\x2d-\x7e]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const EXTENSION_NAME = /^[A-Za-z0-9]+$/;

function text(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ScramMessageError("SCRAM message is not UTF-8");
  }
}

/** A `saslname` unescaped ("=2C" → ",", "=3D" → "="); any other "=" is an error. */
function decodeSaslName(value: string): string {
  if (value.length === 0) throw new ScramMessageError("empty SCRAM user name");
  if (/=(?!2C|3D)/.test(value)) throw new ScramMessageError("invalid escape in SCRAM user name");
  return value.replaceAll("=2C", ",").replaceAll("=3D", "=");
}

function base64(value: string, what: string): Uint8Array {
  if (value.length === 0 || !BASE64.test(value)) throw new ScramMessageError(`${what} is not base64`);
  return Buffer.from(value, "base64");
}

function attribute(part: string | undefined, name: string, what: string): string {
  if (part === undefined || !part.startsWith(`${name}=`)) throw new ScramMessageError(`SCRAM ${what} expected`);
  return part.slice(name.length + 1);
}

function extensionsOf(parts: readonly string[]): Map<string, string> {
  const extensions = new Map<string, string>();
  for (const part of parts) {
    const separator = part.indexOf("=");
    const name = part.slice(0, separator);
    if (separator <= 0 || !EXTENSION_NAME.test(name) || name.length === 1 || extensions.has(name)) {
      throw new ScramMessageError("invalid SCRAM extension");
    }
    extensions.set(name, part.slice(separator + 1));
  }
  return extensions;
}

/** Parses a client-first message. */
export function parseClientFirst(bytes: Uint8Array): ClientFirstMessage {
  const message = text(bytes);
  const flagEnd = message.indexOf(",");
  const flag = message.slice(0, flagEnd);
  if (flag.startsWith("p=")) throw new ScramMessageError("SCRAM channel binding is not supported");
  if (flag !== "n" && flag !== "y") throw new ScramMessageError("invalid SCRAM gs2 header");
  const authzEnd = message.indexOf(",", flagEnd + 1);
  if (authzEnd < 0) throw new ScramMessageError("invalid SCRAM gs2 header");
  const authz = message.slice(flagEnd + 1, authzEnd);
  if (authz.length > 0 && !authz.startsWith("a=")) throw new ScramMessageError("invalid SCRAM authorization id");
  const authorizationId = authz.length === 0 ? "" : decodeSaslName(authz.slice(2));
  const bare = message.slice(authzEnd + 1);
  const parts = bare.split(",");
  if (parts[0]?.startsWith("m=") === true) throw new ScramMessageError("SCRAM mandatory extensions are not supported");
  const userName = decodeSaslName(attribute(parts[0], "n", "user name"));
  const clientNonce = attribute(parts[1], "r", "nonce");
  if (!NONCE.test(clientNonce)) throw new ScramMessageError("invalid SCRAM client nonce");
  return {
    gs2Header: message.slice(0, authzEnd + 1),
    authorizationId,
    userName,
    clientNonce,
    extensions: extensionsOf(parts.slice(2)),
    bare,
  };
}

/** Parses a client-final message. */
export function parseClientFinal(bytes: Uint8Array): ClientFinalMessage {
  const message = text(bytes);
  const proofAt = message.lastIndexOf(",p=");
  if (proofAt < 0) throw new ScramMessageError("SCRAM proof expected");
  const withoutProof = message.slice(0, proofAt);
  const parts = withoutProof.split(",");
  const channelBinding = base64(attribute(parts[0], "c", "channel binding"), "SCRAM channel binding");
  const nonce = attribute(parts[1], "r", "nonce");
  if (!NONCE.test(nonce)) throw new ScramMessageError("invalid SCRAM nonce");
  extensionsOf(parts.slice(2));
  const proof = base64(message.slice(proofAt + 3), "SCRAM proof");
  return { channelBinding, nonce, proof, withoutProof };
}

/** server-first-message: `r=<nonce>,s=<salt>,i=<iterations>`. */
export function formatServerFirst(nonce: string, salt: Uint8Array, iterations: number): string {
  return `r=${nonce},s=${Buffer.from(salt).toString("base64")},i=${String(iterations)}`;
}

/** server-final-message: `v=<server signature>`. */
export function formatServerFinal(serverSignature: Uint8Array): string {
  return `v=${Buffer.from(serverSignature).toString("base64")}`;
}
