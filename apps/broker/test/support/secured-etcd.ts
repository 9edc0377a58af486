// A secured etcd for one test file (mutual TLS with certificates generated at start, authentication with the broker
// user "nereus" limited to /nereus/), started beside the shared services and stopped after the file, and the
// broker's `storage.metadata` section that reaches it.
import { type EtcdDescription, type RunningServices, startServices } from "@nereus/test-services";
import type { BrokerConfigInput } from "../../src/index.js";

/** A running secured etcd and what connects to it. */
export interface SecuredEtcd {
  readonly services: RunningServices;
  readonly etcd: Required<EtcdDescription>;
  /** `storage.metadata` for a broker using the CA, the client certificate and the broker user and password. */
  metadataConfig(overrides?: {
    username?: string;
    password?: string;
    caFile?: string;
  }): NonNullable<NonNullable<BrokerConfigInput["storage"]>["metadata"]>;
  stop(): Promise<void>;
}

/** Starts etcd with mutual TLS and authentication (about two seconds). */
export async function startSecuredEtcd(): Promise<SecuredEtcd> {
  const services = await startServices({ etcd: { tls: true, auth: true }, extraTools: false });
  const { endpoint, tls, auth } = services.etcd;
  if (tls === undefined || auth === undefined) {
    await services.stop();
    throw new Error("etcd did not start secured");
  }
  return {
    services,
    etcd: { endpoint, tls, auth },
    metadataConfig: (overrides = {}) => ({
      kind: "etcd",
      endpoints: [endpoint],
      tls: { caFile: overrides.caFile ?? tls.caFile, certFile: tls.certFile, keyFile: tls.keyFile },
      username: overrides.username ?? auth.username,
      password: overrides.password ?? auth.password,
      dialTimeoutMs: 3_000,
    }),
    stop: async () => void (await services.stop()),
  };
}
