// The subject of a verified client certificate in Kafka's form: RFC 2253 order (most specific first, as Java's
// X500Principal.getName() writes it), "CN=client,OU=unit,O=org,C=US", with RFC 2253 escaping of special characters.
// An SSL listener's client principal is "User:" followed by this string.
import type { TLSSocket } from "node:tls";

const SPECIAL = /[,+"\\<>;]/g;

function escapeValue(value: string): string {
  let escaped = value.replace(SPECIAL, (character) => `\\${character}`);
  if (escaped.startsWith("#") || escaped.startsWith(" ")) escaped = `\\${escaped}`;
  if (escaped.endsWith(" ") && !escaped.endsWith("\\ ")) escaped = `${escaped.slice(0, -1)}\\ `;
  return escaped;
}

/**
 * `subject` as Node's X509Certificate writes it (one "TYPE=value" per line, in certificate order, most general
 * first) in RFC 2253 form.
 */
export function rfc2253Subject(subject: string): string {
  return subject
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => {
      const equals = line.indexOf("=");
      return equals < 0 ? escapeValue(line) : `${line.slice(0, equals)}=${escapeValue(line.slice(equals + 1))}`;
    })
    .reverse()
    .join(",");
}

/**
 * The subject of the client certificate the socket's handshake verified, in RFC 2253 form; undefined when the
 * client sent none or it did not verify.
 */
export function verifiedPeerSubject(socket: TLSSocket): string | undefined {
  if (!socket.authorized) return undefined;
  const certificate = socket.getPeerX509Certificate();
  return certificate === undefined ? undefined : rfc2253Subject(certificate.subject);
}
