// The ACL layer over the handlers the composition root supplies (consumer groups, SCRAM credentials): each family's
// checks come from its own module; with authorization off the handlers are returned as they are.
import { authorizeGroupHandlers } from "../groups/group-authorization.js";
import type { KafkaAuthorizer } from "../security/acl/kafka-authorizer.js";
import { authorizeScramCredentialHandlers } from "../security/acl/scram-credential-authorization.js";
import type { KafkaApiHandlers } from "./kafka-api-handler.js";

/** `handlers` with Kafka's ACL checks in front of the group and SCRAM credential APIs. */
export function authorizeHandlers(handlers: KafkaApiHandlers, authorizer: KafkaAuthorizer): KafkaApiHandlers {
  return authorizeScramCredentialHandlers(authorizeGroupHandlers(handlers, authorizer), authorizer);
}
