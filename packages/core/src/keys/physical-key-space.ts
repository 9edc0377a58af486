// The key space of one kind of physical target (docs/architecture.md §8.2), under the cluster prefix
// P = /nereus/clusters/{cluster}:
//   P/{root}/v1/{shard03}/roots/{hash}                 the target's root record
//   P/{root}/v1/{shard03}/{targets}/{hash}/...          what hangs off the target (its protections)
// `hash` is a hex SHA-256 identifying the target; the shard is its first byte (000..255), so a collector can scan
// roots in bounded, restartable slices. The Object WAL (`physical-objects`) and the BookKeeper WAL
// (`physical-bookkeeper`) each own one space and build their protection keys on top of `targetPrefix`; what a
// hash identifies is theirs. Parsers are strict: a key the builders could not have produced throws DECODE_ERROR.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { decodeKeyComponent } from "../identity/key-component.js";
import { isPhysicalHash, physicalShard } from "./physical-key-components.js";
import { StreamKeySegment, clusterPrefix } from "./stream-keys.js";

const VERSION = "v1";
const ROOTS = "roots";
const SHARD_PATTERN = /^\d{3}$/;

/** The cluster and hash a physical root key names. */
export interface PhysicalRootKeyLocation {
  readonly cluster: string;
  readonly hash: string;
}

/** The DECODE_ERROR of a key that is not of the `kind` a parser expected. */
export function notKeyOf(key: string, kind: string, reason: string, cause?: unknown): NereusError {
  return new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not ${kind} key: ${reason}`, {
    retryable: false,
    cause,
  });
}

/** Builders and parsers of one physical key space, `P/{root}/v1/...`. */
export class PhysicalKeySpace {
  /** `root` is the durable top segment (never rename); `hashName` names the hash in errors. */
  constructor(
    readonly root: string,
    readonly hashName: string,
  ) {}

  /** The shard (first hash byte, 3 decimal digits) of a hash; INVALID_ARGUMENT unless it is 64 lowercase hex digits. */
  shard(hash: string): string {
    return physicalShard(hash, this.hashName);
  }

  /** `P/{root}/v1/`: scan prefix of every root and everything hanging off a target, in a cluster. */
  prefix(cluster: string): string {
    return `${clusterPrefix(cluster)}/${this.root}/${VERSION}/`;
  }

  /** `P/{root}/v1/{shard}/roots/{hash}`: the root record of one target. */
  rootKey(cluster: string, hash: string): string {
    return `${this.prefix(cluster)}${this.shard(hash)}/${ROOTS}/${hash}`;
  }

  /** `P/{root}/v1/{shard}/{targets}/{hash}/`: prefix of what hangs off one target. */
  targetPrefix(cluster: string, targets: string, hash: string): string {
    return `${this.prefix(cluster)}${this.shard(hash)}/${targets}/${hash}/`;
  }

  /** Inverse of `rootKey`; `kind` names the record in errors ("a physical-object root"). */
  parseRootKey(key: string, kind: string): PhysicalRootKeyLocation {
    const { cluster, rest } = this.split(key, kind, 3);
    const [shard, segment, hash] = rest;
    if (segment !== ROOTS || hash === undefined || !isPhysicalHash(hash) || shard !== this.shard(hash)) {
      throw notKeyOf(key, kind, `expected {shard}/${ROOTS}/{${this.hashName}}`);
    }
    return { cluster, hash };
  }

  /**
   * Splits `P/{root}/v1/{shard03}/...` with exactly `tail` segments from the shard on (the shard included), and
   * decodes the cluster. The caller checks the tail, including that the shard is the hash's.
   */
  split(key: string, kind: string, tail: number): { cluster: string; rest: string[] } {
    const parts = key.split("/");
    // "", "nereus", "clusters", {cluster}, {root}, "v1", ...tail
    if (
      parts.length !== 6 + tail ||
      parts[0] !== "" ||
      parts[1] !== StreamKeySegment.ROOT ||
      parts[2] !== StreamKeySegment.CLUSTERS
    ) {
      throw notKeyOf(
        key,
        kind,
        `expected /nereus/clusters/{cluster}/${this.root}/${VERSION}/... with ${String(tail)} more segments`,
      );
    }
    if (parts[4] !== this.root || parts[5] !== VERSION || !SHARD_PATTERN.test(parts[6] ?? "")) {
      throw notKeyOf(key, kind, `expected ${this.root}/${VERSION}/{shard03}`);
    }
    let cluster: string;
    try {
      cluster = decodeKeyComponent(parts[3] ?? "");
    } catch (cause) {
      throw notKeyOf(key, kind, "bad cluster component", cause);
    }
    return { cluster, rest: parts.slice(6) };
  }
}
