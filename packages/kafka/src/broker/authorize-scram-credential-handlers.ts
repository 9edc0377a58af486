// ACL checks of the SCRAM credential APIs, as a layer over their handlers (installed with the group checks when
// authorization is on): DescribeUserScramCredentials needs DESCRIBE on the cluster, AlterUserScramCredentials ALTER
// on the cluster; a denied request answers CLUSTER_AUTHORIZATION_FAILED (per user for Alter) and changes nothing.
import { errorResponseBody } from "./error-response.js";
import type { KafkaApiHandlers } from "./kafka-api-handler.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { AclOperation, CLUSTER_RESOURCE } from "../security/acl/acl-types.js";
import type { KafkaAuthorizer } from "../security/acl/kafka-authorizer.js";

const DENIED_MESSAGE = "Authorization failed.";

/** `handlers` with the SCRAM credential APIs checked (unchanged when authorization is off). */
export function authorizeScramCredentialHandlers(
  handlers: KafkaApiHandlers,
  authorizer: KafkaAuthorizer,
): KafkaApiHandlers {
  const describe = handlers.DescribeUserScramCredentials;
  const alter = handlers.AlterUserScramCredentials;
  if (!authorizer.enabled) return handlers;
  return {
    ...handlers,
    DescribeUserScramCredentials: describe && {
      handle: async (context, request) =>
        (await authorizer.authorize(context, AclOperation.DESCRIBE, CLUSTER_RESOURCE))
          ? describe.handle(context, request)
          : {
              ...errorResponseBody(50, KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED),
              errorMessage: DENIED_MESSAGE,
            },
    },
    AlterUserScramCredentials: alter && {
      handle: async (context, request) => {
        if (await authorizer.authorize(context, AclOperation.ALTER, CLUSTER_RESOURCE))
          return alter.handle(context, request);
        const users = [...request.body.deletions, ...request.body.upsertions].map(({ name }) => name);
        return {
          throttleTimeMs: 0,
          results: [...new Set(users)].map((user) => ({
            user,
            errorCode: KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED,
            errorMessage: DENIED_MESSAGE,
          })),
        };
      },
    },
  };
}
