// The identity hash of a physical target: what commit ids and replay markers bind to.
import type { ReadTarget } from "../domain/read-target.js";
import { ByteWriter } from "../bytes/byte-writer.js";
import { sha256Hex } from "../bytes/sha256.js";
import { readTargetCodec } from "./read-target-codec.js";

const encoder = new TextEncoder();

/**
 * Hex SHA-256 of `type ‖ 0x00 ‖ decimal(version) ‖ 0x00 ‖ payload`, where payload is the canonical per-type
 * encoding (`readTargetCodec.encodePayload`). Equal targets ⇒ equal identities; any field change ⇒ a different
 * identity. Throws METADATA_INVARIANT_VIOLATION for an invalid target.
 */
export function readTargetIdentity(target: ReadTarget): string {
  const payload = readTargetCodec.encodePayload(target);
  return sha256Hex(
    new ByteWriter(payload.length + 40)
      .writeBytes(encoder.encode(target.type))
      .writeU8(0)
      .writeBytes(encoder.encode(String(target.version)))
      .writeU8(0)
      .writeBytes(payload)
      .finish(),
  );
}
