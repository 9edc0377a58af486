// The identity hash of a physical target: what commit ids and replay markers bind to.
import type { ReadTarget } from "../domain/read-target.js";
import { withScratchWriter } from "../bytes/byte-writer.js";
import { sha256Hex } from "../bytes/sha256.js";
import { checkReadTarget, writeReadTargetPayload } from "./read-target-codec.js";

/**
 * Hex SHA-256 of `type ‖ 0x00 ‖ decimal(version) ‖ 0x00 ‖ payload`, where payload is the canonical per-type
 * encoding (`readTargetCodec.encodePayload`). Equal targets ⇒ equal identities; any field change ⇒ a different
 * identity. Throws METADATA_INVARIANT_VIOLATION for an invalid target.
 */
export function readTargetIdentity(target: ReadTarget): string {
  checkReadTarget(target);
  return withScratchWriter((writer) => {
    writer.writeUtf8(target.type).writeU8(0).writeUtf8(String(target.version)).writeU8(0);
    writeReadTargetPayload(writer, target);
    return sha256Hex(writer.view());
  });
}
