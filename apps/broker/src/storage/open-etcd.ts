// The etcd metadata store of a cluster broker: reads the TLS files the configuration names (a missing or unreadable
// file is a start-up error naming the setting and the file), connects with them and the user's credentials, and
// turns a failed connect into one line saying what failed — etcd did not answer, TLS (the CA, the client
// certificate) or the user name or password — without the password.
import fs from "node:fs";
import type { MetadataStore } from "@nereus/core";
import { createEtcdMetadataStore, type EtcdTlsOptions } from "@nereus/metadata";
import type { EtcdMetadataConfig } from "../config/etcd-config.js";
import { StartupError, reasonOf } from "../errors/startup-error.js";

/** The contents of the PEM file a setting names; a StartupError naming the setting and the file when unreadable. */
function readPem(setting: string, file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const reason = (error as { code?: string }).code === "ENOENT" ? "no such file" : reasonOf(error);
    throw new StartupError(`cannot read ${setting} ${file}: ${reason}`, { cause: error });
  }
}

/** The TLS material of the etcd section, read from its files. */
function tlsOptions(tls: NonNullable<EtcdMetadataConfig["tls"]>): EtcdTlsOptions {
  return {
    ca: readPem("storage.metadata.tls.caFile", tls.caFile),
    ...(tls.certFile === undefined ? {} : { cert: readPem("storage.metadata.tls.certFile", tls.certFile) }),
    ...(tls.keyFile === undefined ? {} : { key: readPem("storage.metadata.tls.keyFile", tls.keyFile) }),
  };
}

/** What the start-up line says about the etcd connection (no secrets). */
export function etcdSummary(spec: EtcdMetadataConfig): Record<string, unknown> {
  return {
    metadata: "etcd",
    etcdEndpoints: spec.endpoints,
    etcdTls: spec.tls === undefined ? "off" : spec.tls.certFile === undefined ? "on" : "mutual",
    ...(spec.username === undefined ? {} : { etcdUser: spec.username }),
  };
}

/** Connects to etcd as configured; throws StartupError saying what failed. */
export async function openEtcd(spec: EtcdMetadataConfig): Promise<MetadataStore> {
  const tls = spec.tls === undefined ? undefined : tlsOptions(spec.tls);
  try {
    return await createEtcdMetadataStore({
      endpoints: spec.endpoints,
      dialTimeoutMs: spec.dialTimeoutMs,
      requestTimeoutMs: spec.requestTimeoutMs,
      ...(tls === undefined ? {} : { tls }),
      ...(spec.username === undefined || spec.password === undefined
        ? {}
        : { auth: { username: spec.username, password: spec.password } }),
    });
  } catch (error) {
    throw new StartupError(`cannot use etcd at ${spec.endpoints.join(",")}: ${reasonOf(error)}`, { cause: error });
  }
}
