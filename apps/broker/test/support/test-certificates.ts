// Throw-away X.509 material for the TLS tests, made with the openssl command line at test time: a CA, a server
// certificate for loopback (SAN IP:127.0.0.1, DNS:localhost) and a client certificate whose subject has several
// attributes (so the RFC 2253 order of the principal is tested), all signed by the CA; plus a second, unrelated CA
// with a client certificate of its own (a client the broker must not trust). EC P-256 keys: milliseconds each.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { tempDir } from "./temp-dirs.js";

const run = promisify(execFile);

/** The generated PEM files (absolute paths). */
export interface TestCertificates {
  readonly dir: string;
  readonly caFile: string;
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
  /** The client's key in PKCS#8 followed by its certificate: a PEM keystore as Java's kafka-clients reads it. */
  readonly clientKeystoreFile: string;
  /** The client certificate's subject as Kafka names it (RFC 2253 order). */
  readonly clientSubject: string;
  /** A client certificate and key signed by a CA the server does not trust. */
  readonly strangerCertFile: string;
  readonly strangerKeyFile: string;
}

async function openssl(dir: string, args: readonly string[]): Promise<void> {
  await run("openssl", [...args], { cwd: dir, timeout: 30_000 });
}

async function authority(dir: string, name: string): Promise<void> {
  await openssl(dir, ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", `${name}.key`]);
  await openssl(dir, [
    "req",
    "-x509",
    "-new",
    "-key",
    `${name}.key`,
    "-subj",
    `/O=Nereus Tests/CN=${name}`,
    "-days",
    "2",
    "-sha256",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
    "-out",
    `${name}.crt`,
  ]);
}

async function signed(dir: string, ca: string, name: string, subject: string, extensions: string): Promise<void> {
  fs.writeFileSync(path.join(dir, `${name}.ext`), `${extensions}\n`);
  await openssl(dir, ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", `${name}.key`]);
  await openssl(dir, ["req", "-new", "-key", `${name}.key`, "-subj", subject, "-out", `${name}.csr`]);
  await openssl(dir, [
    "x509",
    "-req",
    "-in",
    `${name}.csr`,
    "-CA",
    `${ca}.crt`,
    "-CAkey",
    `${ca}.key`,
    "-CAcreateserial",
    "-days",
    "2",
    "-sha256",
    "-extfile",
    `${name}.ext`,
    "-out",
    `${name}.crt`,
  ]);
}

/** Generates the certificates into a fresh temp directory (removed when the test file is done). */
export async function generateTestCertificates(): Promise<TestCertificates> {
  const dir = tempDir("certs");
  await authority(dir, "ca");
  await authority(dir, "stranger-ca");
  await signed(
    dir,
    "ca",
    "server",
    "/O=Nereus Tests/CN=localhost",
    "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth",
  );
  await signed(dir, "ca", "client", "/C=US/O=Nereus Tests/OU=Streaming/CN=alice", "extendedKeyUsage=clientAuth");
  await signed(dir, "stranger-ca", "stranger", "/O=Elsewhere/CN=mallory", "extendedKeyUsage=clientAuth");
  const file = (name: string): string => path.join(dir, name);
  await openssl(dir, ["pkcs8", "-topk8", "-nocrypt", "-in", "client.key", "-out", "client.pk8"]);
  fs.writeFileSync(
    file("client-keystore.pem"),
    `${fs.readFileSync(file("client.pk8"), "utf8")}${fs.readFileSync(file("client.crt"), "utf8")}`,
  );
  return {
    dir,
    caFile: file("ca.crt"),
    serverCertFile: file("server.crt"),
    serverKeyFile: file("server.key"),
    clientCertFile: file("client.crt"),
    clientKeyFile: file("client.key"),
    clientKeystoreFile: file("client-keystore.pem"),
    clientSubject: "CN=alice,OU=Streaming,O=Nereus Tests,C=US",
    strangerCertFile: file("stranger.crt"),
    strangerKeyFile: file("stranger.key"),
  };
}
