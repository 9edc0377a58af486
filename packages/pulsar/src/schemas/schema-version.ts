// Schema versions as Pulsar puts them on the wire (PRODUCER_SUCCESS, GET_SCHEMA, message metadata): the version
// number as an 8-byte big-endian signed long. Versions of a topic count from 0.
import { ErrorCode, NereusError } from "@nereus/core";

const VERSION_BYTES = 8;
/** Largest schema version (Long.MAX_VALUE). */
export const MAX_SCHEMA_VERSION = 2n ** 63n - 1n;

/** The wire bytes of schema version `version` (in [0, 2^63 - 1]). */
export function encodeSchemaVersion(version: bigint): Uint8Array {
  if (version < 0n || version > MAX_SCHEMA_VERSION) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `schema version ${String(version)} is outside [0, 2^63 - 1]`);
  }
  const bytes = new Uint8Array(VERSION_BYTES);
  new DataView(bytes.buffer).setBigInt64(0, version);
  return bytes;
}

/** The version wire bytes name; INVALID_ARGUMENT unless they are 8 bytes of a version in [0, 2^63 - 1]. */
export function decodeSchemaVersion(bytes: Uint8Array): bigint {
  if (bytes.length !== VERSION_BYTES) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `a schema version is ${String(VERSION_BYTES)} bytes, got ${String(bytes.length)}`,
    );
  }
  const version = new DataView(bytes.buffer, bytes.byteOffset, VERSION_BYTES).getBigInt64(0);
  if (version < 0n) throw new NereusError(ErrorCode.INVALID_ARGUMENT, `schema version ${String(version)} is negative`);
  return version;
}
