// Throw-away TLS material for the benchmark's TLS runs, made with the openssl command line: a CA and a server
// certificate for 127.0.0.1 (EC P-256), the key in PKCS#8 as both brokers read it, and the PEM keystore Apache
// Kafka reads (key, then certificate). Also the client settings that trust the CA.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { BaselineError } from "./errors.js";

const run = promisify(execFile);

/** The generated files and the Java client settings of an SSL connection that trusts them. */
export interface BenchCertificates {
  readonly caFile: string;
  readonly certFile: string;
  /** PKCS#8 private key. */
  readonly keyFile: string;
  /** Key then certificate: Apache Kafka's `ssl.keystore.type=PEM` file. */
  readonly keystoreFile: string;
  /** `producer.*` and `consumer.*` settings for the Java driver. */
  readonly clientProps: Readonly<Record<string, string>>;
}

async function openssl(dir: string, args: readonly string[]): Promise<void> {
  try {
    await run("openssl", [...args], { cwd: dir, timeout: 30_000 });
  } catch (error) {
    throw new BaselineError("tls", `openssl ${args[0] ?? ""} failed: ${String((error as Error).message)}`, {
      cause: error,
    });
  }
}

/** Generates the certificates into `dir` (created if missing). */
export async function benchCertificates(dir: string): Promise<BenchCertificates> {
  fs.mkdirSync(dir, { recursive: true });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await openssl(dir, [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-subj",
    "/CN=bench-ca",
    "-days",
    "2",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign",
  ]);
  await openssl(dir, ["req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"]);
  fs.writeFileSync(path.join(dir, "server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  await openssl(dir, [
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    "2",
    "-sha256",
    "-extfile",
    "server.ext",
    "-out",
    "server.pem",
  ]);
  const file = (name: string): string => path.join(dir, name);
  fs.writeFileSync(
    file("keystore.pem"),
    `${fs.readFileSync(file("server.key"), "utf8")}${fs.readFileSync(file("server.pem"), "utf8")}`,
  );
  const props: Record<string, string> = {};
  for (const client of ["producer", "consumer"]) {
    props[`${client}.security.protocol`] = "SSL";
    props[`${client}.ssl.truststore.type`] = "PEM";
    props[`${client}.ssl.truststore.location`] = file("ca.pem");
  }
  return {
    caFile: file("ca.pem"),
    certFile: file("server.pem"),
    keyFile: file("server.key"),
    keystoreFile: file("keystore.pem"),
    clientProps: props,
  };
}
