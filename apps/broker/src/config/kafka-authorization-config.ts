// `kafka.authorization`: ACL authorization of Kafka requests, with Kafka's meanings. `enabled` turns the authorizer
// on (Kafka's authorizer.class.name); `superUsers` is super.users ("User:name" principals allowed everything, e.g. the
// administrator that creates the first ACLs); `allowEveryoneIfNoAclFound` is allow.everyone.if.no.acl.found;
// `aclRefreshIntervalMs` bounds how long another broker's ACL change can go unseen when the metadata watch misses it.
// Off by default: every request is allowed and the ACL APIs answer SECURITY_DISABLED.
import type { KafkaAuthorizationOptions } from "@nereus/kafka";
import { z } from "zod";

/** `kafka.authorization`. */
export const KafkaAuthorizationConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  superUsers: z.array(z.string().regex(/^User:.+$/s, 'must be a principal "User:name"')).default([]),
  allowEveryoneIfNoAclFound: z.boolean().default(false),
  aclRefreshIntervalMs: z.int().min(100).max(3_600_000).default(5_000),
});

/** The broker's authorization options of `authorization`. */
export function kafkaAuthorizationOptions(
  authorization: z.output<typeof KafkaAuthorizationConfigSchema>,
): KafkaAuthorizationOptions {
  return {
    enabled: authorization.enabled,
    superUsers: authorization.superUsers,
    allowEveryoneIfNoAclFound: authorization.allowEveryoneIfNoAclFound,
    refreshIntervalMs: authorization.aclRefreshIntervalMs,
  };
}
