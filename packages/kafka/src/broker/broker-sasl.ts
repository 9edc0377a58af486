// The SASL side of one broker: the environment its SASL connections share (enabled mechanisms, PLAIN users, the
// SCRAM credential store, the authentication counters) and the handlers of the SASL and SCRAM credential APIs. On
// listeners without SASL, SaslHandshake and SaslAuthenticate reach these handlers and are answered
// ILLEGAL_SASL_STATE, as Kafka answers them outside an authentication exchange.
import type { MetadataStore } from "@nereus/core";
import type { BrokerMetrics } from "./broker-metrics.js";
import type { KafkaApiHandler, KafkaApiHandlers } from "./kafka-api-handler.js";
import type { KafkaBrokerLogger } from "../logging/broker-logger.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { type SaslEnvironment } from "../security/sasl/sasl-authenticator.js";
import { checkSaslOptions, type KafkaSaslOptions } from "../security/sasl/sasl-options.js";
import {
  createAlterUserScramCredentialsHandler,
  createDescribeUserScramCredentialsHandler,
} from "./handlers/scram-credentials-handler.js";
import { ScramCredentialStore } from "../security/sasl/scram-credential-store.js";

/** The environment of SASL connections on a broker without SASL settings: every handshake is refused. */
export const NO_SASL: SaslEnvironment = Object.freeze({
  settings: { mechanisms: [], plainUsers: new Map<string, string>(), reauthenticationMs: 0 },
  scramCredentials: () => Promise.resolve(undefined),
  logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  onOutcome: () => undefined,
});

/** What {@link createBrokerSasl} needs. */
export interface BrokerSaslOptions {
  readonly metadata: MetadataStore;
  readonly cluster: string;
  readonly sasl?: KafkaSaslOptions;
  readonly logger: KafkaBrokerLogger;
  readonly metrics: BrokerMetrics;
}

/** The SASL parts of a broker. */
export interface BrokerSasl {
  /** Undefined when the broker has no SASL settings. */
  readonly environment: SaslEnvironment | undefined;
  readonly handlers: KafkaApiHandlers;
}

const outsideHandshake: KafkaApiHandler<17> = {
  handle: () => Promise.resolve({ errorCode: KafkaErrorCode.ILLEGAL_SASL_STATE, mechanisms: [] }),
};

const outsideAuthenticate: KafkaApiHandler<36> = {
  handle: () =>
    Promise.resolve({
      errorCode: KafkaErrorCode.ILLEGAL_SASL_STATE,
      errorMessage: "SaslAuthenticate request received after successful authentication",
      authBytes: new Uint8Array(0),
      sessionLifetimeMs: 0,
    }),
};

/** Validates the SASL options and builds the broker's SASL environment and handlers. */
export function createBrokerSasl(options: BrokerSaslOptions): BrokerSasl {
  const store = new ScramCredentialStore(options.metadata, options.cluster);
  const { metrics } = options;
  const environment: SaslEnvironment | undefined =
    options.sasl === undefined
      ? undefined
      : {
          settings: checkSaslOptions(options.sasl),
          scramCredentials: (mechanism, userName, signal) => store.credential(mechanism, userName, signal),
          logger: options.logger,
          onOutcome: (succeeded) => {
            if (succeeded) metrics.authenticationSuccesses += 1;
            else metrics.authenticationFailures += 1;
          },
        };
  return {
    environment,
    handlers: {
      SaslHandshake: outsideHandshake,
      SaslAuthenticate: outsideAuthenticate,
      DescribeUserScramCredentials: createDescribeUserScramCredentialsHandler(store),
      AlterUserScramCredentials: createAlterUserScramCredentialsHandler(store),
    },
  };
}
