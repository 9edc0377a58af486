// Metadata keys of the stored ACLs, under the cluster prefix P = /nereus/clusters/{cluster}:
//
//   P/kafka/acls/{resourceType}/{patternType}/{name}   one KafkaAcls record per resource pattern
//
// with resourceType one of topic, group, cluster, transactional-id, delegation-token, user; patternType literal or
// prefixed; name through core's key-component codec. The segments are durable: never rename them.
import { ErrorCode, NereusError } from "@nereus/core";
import { clusterPrefix, decodeKeyComponent, encodeKeyComponent } from "@nereus/core/internal";
import { PatternType, ResourceType, type ResourcePattern } from "./acl-types.js";

const RESOURCE_SEGMENTS: ReadonlyMap<number, string> = new Map([
  [ResourceType.TOPIC, "topic"],
  [ResourceType.GROUP, "group"],
  [ResourceType.CLUSTER, "cluster"],
  [ResourceType.TRANSACTIONAL_ID, "transactional-id"],
  [ResourceType.DELEGATION_TOKEN, "delegation-token"],
  [ResourceType.USER, "user"],
]);
const PATTERN_SEGMENTS: ReadonlyMap<number, string> = new Map([
  [PatternType.LITERAL, "literal"],
  [PatternType.PREFIXED, "prefixed"],
]);

function codeOf(segments: ReadonlyMap<number, string>, segment: string | undefined): number | undefined {
  for (const [code, name] of segments) if (name === segment) return code;
  return undefined;
}

/** Key builder and parser of one cluster's ACL records. */
export class AclKeyspace {
  readonly #prefix: string;

  constructor(cluster: string) {
    this.#prefix = `${clusterPrefix(cluster)}/kafka/acls/`;
  }

  /** `P/kafka/acls/`: scan prefix of every ACL record. */
  prefix(): string {
    return this.#prefix;
  }

  /** The key of `pattern`'s record; INVALID_ARGUMENT for a pattern that cannot be stored. */
  key(pattern: ResourcePattern): string {
    const resource = RESOURCE_SEGMENTS.get(pattern.resourceType);
    const patternType = PATTERN_SEGMENTS.get(pattern.patternType);
    if (resource === undefined || patternType === undefined) {
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, "an ACL pattern needs a concrete resource and pattern type", {
        retryable: false,
      });
    }
    return `${this.#prefix}${resource}/${patternType}/${encodeKeyComponent(pattern.name)}`;
  }

  /** The pattern a key names; DECODE_ERROR for any other key. */
  parse(key: string): ResourcePattern {
    const parts = key.startsWith(this.#prefix) ? key.slice(this.#prefix.length).split("/") : [];
    const resourceType = codeOf(RESOURCE_SEGMENTS, parts[0]);
    const patternType = codeOf(PATTERN_SEGMENTS, parts[1]);
    const component = parts[2];
    if (parts.length !== 3 || resourceType === undefined || patternType === undefined || component === undefined) {
      throw new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not a Kafka ACL key`, {
        retryable: false,
      });
    }
    return {
      resourceType: resourceType as ResourcePattern["resourceType"],
      patternType: patternType as ResourcePattern["patternType"],
      name: decodeKeyComponent(component),
    };
  }
}
