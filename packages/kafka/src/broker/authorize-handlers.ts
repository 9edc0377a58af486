// The ACL layer over the handlers the composition root supplies (consumer groups, SCRAM credentials): each family's
// checks come from its own module; with authorization off the handlers are returned as they are.
import { authorizeGroupHandlers } from "./authorize-group-handlers.js";
import type { KafkaAuthorizer } from "../security/acl/kafka-authorizer.js";
import { authorizeScramCredentialHandlers } from "./authorize-scram-credential-handlers.js";
import type { KafkaApiHandlers } from "./kafka-api-handler.js";

/** `handlers` with Kafka's ACL checks in front of the group and SCRAM credential APIs. */
export function authorizeHandlers(handlers: KafkaApiHandlers, authorizer: KafkaAuthorizer): KafkaApiHandlers {
  return authorizeScramCredentialHandlers(authorizeGroupHandlers(handlers, authorizer), authorizer);
}
