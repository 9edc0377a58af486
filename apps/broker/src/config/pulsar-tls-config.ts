// The Pulsar TLS listener (Apache Pulsar's brokerServicePortTls): a second Pulsar port that speaks the binary
// protocol inside TLS, for pulsar+ssl:// clients, next to the plaintext `pulsar.port` unless `plaintext` is false.
// LOOKUP answers name both URLs (brokerServiceUrl, brokerServiceUrlTls) so each client stays on its transport.
import { z } from "zod";
import { CA_FILE_REQUIRED, TLS_FIELDS, caFileForClientAuth } from "./tls-config.js";

/** `pulsar.tls`: the TLS listener's port and files. */
export const PulsarTlsConfigSchema = z
  .strictObject({
    ...TLS_FIELDS,
    /** 0 picks a free port. Apache Pulsar's default TLS port is 6651. */
    port: z.int().min(0).max(65_535).default(6651),
    /** What LOOKUP tells pulsar+ssl:// clients (default: the port actually bound). */
    advertisedPort: z.int().min(1).max(65_535).optional(),
    /** Whether the plaintext listener on `pulsar.port` stays open next to the TLS one. */
    plaintext: z.boolean().default(true),
  })
  .refine(caFileForClientAuth, CA_FILE_REQUIRED);
