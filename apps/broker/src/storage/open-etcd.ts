// The etcd metadata store of a cluster broker: reads the TLS files the configuration names (a missing or unreadable
// file is a start-up error naming the setting and the file), connects with them and the user's credentials, and
// turns a failed connect into one line saying what failed — etcd did not answer, TLS (the CA, the client
// certificate), the user name or password, or a user whose role may not use the cluster's keys — without the
// password.
import fs from "node:fs";
import type { MetadataStore } from "@nereus/core";
import { clusterPrefix } from "@nereus/core/internal";
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

/**
 * Checks that the configured user may read and write the cluster's keys: a read, and a txn whose compare cannot hold
 * (so nothing is written) — etcd checks the permission of a txn's writes whether or not its compares hold.
 */
async function checkPermission(metadata: MetadataStore, spec: EtcdMetadataConfig, cluster: string): Promise<void> {
  const key = `${clusterPrefix(cluster)}/broker/v1/permission-probe`;
  try {
    await metadata.get(key);
    await metadata.txn({
      compares: [{ key, modRevision: Number.MAX_SAFE_INTEGER }],
      writes: [{ type: "put", key, value: new Uint8Array(0) }],
    });
  } catch (error) {
    await metadata.close().catch(() => undefined);
    throw new StartupError(
      `etcd user "${spec.username ?? ""}" may not read and write the keys of cluster ${cluster} under ${clusterPrefix(cluster)}/ (its role needs readwrite on the prefix /nereus/): ${reasonOf(error)}`,
      { cause: error },
    );
  }
}

/** Connects to etcd as configured (and, with a user, checks its permission); throws StartupError saying what failed. */
export async function openEtcd(spec: EtcdMetadataConfig, cluster: string): Promise<MetadataStore> {
  const tls = spec.tls === undefined ? undefined : tlsOptions(spec.tls);
  let metadata: MetadataStore;
  try {
    metadata = await createEtcdMetadataStore({
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
  if (spec.username !== undefined) await checkPermission(metadata, spec, cluster);
  return metadata;
}
