// Metadata keys of the SCRAM credentials, beside the adapter's other records under P = /nereus/clusters/{cluster}:
//
//   P/kafka/scram-users/{userName}    one KafkaScramUser record per user (its credentials of every mechanism)
//
// The user name goes through core's key-component codec.
import { ErrorCode, NereusError } from "@nereus/core";
import { clusterPrefix, decodeKeyComponent, encodeKeyComponent } from "@nereus/core/internal";

/** Key builders and the parser of one cluster's SCRAM user keys. */
export class ScramCredentialKeys {
  readonly prefix: string;

  constructor(cluster: string) {
    this.prefix = `${clusterPrefix(cluster)}/kafka/scram-users/`;
  }

  /** `P/kafka/scram-users/{userName}`. */
  userKey(userName: string): string {
    return `${this.prefix}${encodeKeyComponent(userName)}`;
  }

  /** The user a user key names; DECODE_ERROR for any other key. */
  parseUserKey(key: string): string {
    const component = key.startsWith(this.prefix) ? key.slice(this.prefix.length) : "";
    if (component.length === 0 || component.includes("/")) {
      throw new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not a SCRAM user key`, {
        retryable: false,
      });
    }
    return decodeKeyComponent(component);
  }
}
