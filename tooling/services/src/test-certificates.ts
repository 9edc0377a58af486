// Throw-away X.509 material for services that serve TLS on loopback: a self-signed CA, a server certificate for
// 127.0.0.1/localhost signed by it, and a client certificate (for mutual TLS) signed by it, all made with the
// openssl command line (EC P-256 keys, so generation takes milliseconds). Nothing here is fit for production.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { ServiceStartError } from "./errors.js";

const run = promisify(execFile);

/** PEM files of one generated set (absolute paths). */
export interface TestCertificateFiles {
  /** The CA certificate clients trust. */
  readonly caFile: string;
  /** The server's certificate (SAN: IP 127.0.0.1, DNS localhost) and key. */
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
  /** The client's certificate (CN = `clientName`) and key, for mutual TLS. */
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
}

/** What the generated certificates say. */
export interface TestCertificateOptions {
  /** Subject CN of the CA (default "nereus-test-ca"); two sets with different names are unrelated CAs. */
  readonly caName?: string;
  /** Subject CN of the client certificate (default "nereus"). */
  readonly clientName?: string;
  /** openssl executable (default "openssl" on PATH). */
  readonly openssl?: string;
}

const VALID_DAYS = "2";

async function openssl(binary: string, dir: string, args: readonly string[]): Promise<void> {
  try {
    await run(binary, [...args], { cwd: dir, timeout: 30_000 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim() ?? "";
    const reason = (error as { code?: string }).code === "ENOENT" ? `${binary} not found on PATH` : stderr;
    throw new ServiceStartError("harness", `openssl ${args[0] ?? ""} failed: ${reason || String(error)}`);
  }
}

/** A key and a certificate signed by the CA in `dir`, with the extensions in `extensions`. */
async function signedCertificate(
  binary: string,
  dir: string,
  name: string,
  subject: string,
  extensions: string,
): Promise<void> {
  const extFile = path.join(dir, `${name}.ext`);
  fs.writeFileSync(extFile, `${extensions}\n`);
  await openssl(binary, dir, ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", `${name}.key`]);
  await openssl(binary, dir, ["req", "-new", "-key", `${name}.key`, "-subj", subject, "-out", `${name}.csr`]);
  await openssl(binary, dir, [
    "x509",
    "-req",
    "-in",
    `${name}.csr`,
    "-CA",
    "ca.crt",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    VALID_DAYS,
    "-sha256",
    "-extfile",
    extFile,
    "-out",
    `${name}.crt`,
  ]);
}

/**
 * Generates a CA, a server and a client certificate into `dir` (created if missing). Keys are written mode 0600.
 * @throws ServiceStartError naming the openssl step that failed.
 */
export async function generateTestCertificates(
  dir: string,
  options: TestCertificateOptions = {},
): Promise<TestCertificateFiles> {
  const binary = options.openssl ?? "openssl";
  fs.mkdirSync(dir, { recursive: true });
  await openssl(binary, dir, ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.key"]);
  await openssl(binary, dir, [
    "req",
    "-x509",
    "-new",
    "-key",
    "ca.key",
    "-subj",
    `/CN=${options.caName ?? "nereus-test-ca"}`,
    "-days",
    VALID_DAYS,
    "-sha256",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
    "-out",
    "ca.crt",
  ]);
  await signedCertificate(
    binary,
    dir,
    "server",
    "/CN=127.0.0.1",
    "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth",
  );
  await signedCertificate(
    binary,
    dir,
    "client",
    `/CN=${options.clientName ?? "nereus"}`,
    "extendedKeyUsage=clientAuth",
  );
  for (const key of ["ca.key", "server.key", "client.key"]) fs.chmodSync(path.join(dir, key), 0o600);
  return {
    caFile: path.join(dir, "ca.crt"),
    serverCertFile: path.join(dir, "server.crt"),
    serverKeyFile: path.join(dir, "server.key"),
    clientCertFile: path.join(dir, "client.crt"),
    clientKeyFile: path.join(dir, "client.key"),
  };
}
