// The TLS material of a listener, read from its PEM files and checked at start-up before anything binds: each file
// must be readable and hold what it should (certificates, a private key), the key must match the certificate, and
// the certificate must not have expired. Any failure is a StartupError naming the listener and the file.
import { X509Certificate, createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import tls from "node:tls";
import type { ClientAuthMode, TlsConfig } from "../config/tls-config.js";
import { StartupError } from "../errors/startup-error.js";

/** What a TLS server of one listener needs: its secure context options and how client certificates are treated. */
export interface TlsMaterial {
  /** Options for tls.createServer (key, cert, ca, requestCert, rejectUnauthorized). */
  readonly serverOptions: tls.TlsOptions;
  readonly clientAuth: ClientAuthMode;
  /** The subject of the server certificate, for the start-up log. */
  readonly subject: string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function readPem(listener: string, field: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StartupError(`${listener}: cannot read ${field} ${path} (${code ?? String(error)})`, { cause: error });
  }
  return text;
}

function certificatesOf(listener: string, field: string, path: string, text: string): X509Certificate[] {
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) throw new StartupError(`${listener}: ${field} ${path} holds no PEM certificate`);
  return blocks.map((block) => {
    try {
      return new X509Certificate(block);
    } catch (error) {
      throw new StartupError(`${listener}: ${field} ${path} holds a certificate that cannot be parsed`, {
        cause: error,
      });
    }
  });
}

/**
 * Reads and checks the files of `config`; `listener` names the listener in errors (e.g. "Kafka listener SSL").
 * Throws StartupError naming the file at fault.
 */
export function loadTlsMaterial(listener: string, config: TlsConfig, now = Date.now()): TlsMaterial {
  const certText = readPem(listener, "certFile", config.certFile);
  const keyText = readPem(listener, "keyFile", config.keyFile);
  const caText = config.caFile === undefined ? undefined : readPem(listener, "caFile", config.caFile);
  const [leaf] = certificatesOf(listener, "certFile", config.certFile, certText);
  if (caText !== undefined) certificatesOf(listener, "caFile", config.caFile!, caText);
  let key;
  try {
    key = createPrivateKey(keyText);
  } catch (error) {
    throw new StartupError(
      `${listener}: keyFile ${config.keyFile} holds no usable PEM private key (an encrypted key is not supported)`,
      { cause: error },
    );
  }
  if (!leaf!.checkPrivateKey(key))
    throw new StartupError(
      `${listener}: keyFile ${config.keyFile} is not the private key of the certificate in ${config.certFile}`,
    );
  if (Date.parse(leaf!.validTo) < now)
    throw new StartupError(`${listener}: the certificate in ${config.certFile} expired on ${leaf!.validTo}`);
  const serverOptions: tls.TlsOptions = {
    cert: certText,
    key: keyText,
    ...(caText === undefined ? {} : { ca: caText }),
    requestCert: config.clientAuth !== "none",
    rejectUnauthorized: config.clientAuth === "required",
    minVersion: "TLSv1.2",
  };
  try {
    tls.createSecureContext(serverOptions);
  } catch (error) {
    throw new StartupError(
      `${listener}: the TLS files ${config.certFile}, ${config.keyFile} cannot be used: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return { serverOptions, clientAuth: config.clientAuth, subject: leaf!.subject.replace(/\n/g, ", ") };
}
