// The etcd section of the broker configuration (`storage.metadata` with kind "etcd"): the endpoints and timeouts,
// TLS (the CA file etcd's server certificate must chain to, and a client certificate and key when etcd requires
// mutual TLS; the endpoints are then https://) and user/password authentication (the password is a secret: never
// printed, logged or put in an error). The files are read at start-up (storage/etcd-connection.ts).
import { z } from "zod";

const positive = z.int().min(1).max(0x7fff_ffff);
const pemFile = (what: string) => z.string().min(1, `must name the PEM file of ${what}`);

const etcdTls = z
  .strictObject({
    /** CA certificate(s) (PEM) that etcd's server certificate must chain to. */
    caFile: pemFile("the CA certificate"),
    /** Client certificate (PEM) for etcd's --client-cert-auth; goes with keyFile. */
    certFile: pemFile("the client certificate").optional(),
    /** The client certificate's private key (PEM, unencrypted). */
    keyFile: pemFile("the client key").optional(),
  })
  .refine((tls) => (tls.certFile === undefined) === (tls.keyFile === undefined), {
    message: "certFile and keyFile go together (give both for mutual TLS, or neither)",
    path: ["certFile"],
  });

export const EtcdMetadataConfigSchema = z
  .strictObject({
    kind: z.literal("etcd"),
    endpoints: z
      .array(z.url({ protocol: /^https?$/ }))
      .min(1, "needs at least one etcd endpoint (e.g. http://127.0.0.1:2379)"),
    dialTimeoutMs: positive.default(5_000),
    requestTimeoutMs: positive.default(10_000),
    /** TLS to etcd; every endpoint must then be https://. */
    tls: etcdTls.optional(),
    /** etcd user; with `password`, the broker authenticates (etcd's Authenticate call) before its first request. */
    username: z.string().min(1).optional(),
    /** The etcd user's password (a secret: never printed or logged). */
    password: z.string().min(1).optional(),
  })
  .refine((etcd) => (etcd.username === undefined) === (etcd.password === undefined), {
    message: "username and password go together (give both to authenticate, or neither)",
    path: ["username"],
  })
  .refine((etcd) => etcd.tls === undefined || etcd.endpoints.every((endpoint) => endpoint.startsWith("https://")), {
    message: "tls needs https:// endpoints",
    path: ["endpoints"],
  });

/** The validated etcd section. */
export type EtcdMetadataConfig = z.output<typeof EtcdMetadataConfigSchema>;
