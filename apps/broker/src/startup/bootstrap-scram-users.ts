// Start-up step after the storage opened: the SCRAM users of `kafka.sasl.scramUsers` get the credentials they lack
// (an existing credential is never reset), before any listener serves a request. Logs the created pairs by name.
import { bootstrapScramUsers } from "@nereus/kafka";
import type { BrokerConfig } from "../config/broker-config.js";
import { initialScramUsers } from "../config/kafka-sasl-config.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import type { BrokerStorage } from "../storage/open-storage.js";

/** Creates the configured SCRAM users' missing credentials. */
export async function bootstrapConfiguredScramUsers(
  config: BrokerConfig,
  storage: BrokerStorage,
  logger: BrokerLogger,
): Promise<void> {
  const users = initialScramUsers(config.kafka.sasl);
  if (users.length === 0) return;
  const created = await bootstrapScramUsers(storage.metadata, config.cluster, users);
  if (created.length > 0) logger.info("SCRAM credentials created from the configuration", { credentials: created });
}
