// One reusable BinaryWriter for top-level encodes: a fresh writer allocates and grows its buffer on every message,
// which dominates the cost of encoding small commands. Encodes are synchronous, so one idle writer suffices; a
// nested use while it is taken gets a fresh writer. A failed write resets the writer before it is reused.
import { BinaryWriter } from "@bufbuild/protobuf/wire";

let idle: BinaryWriter | undefined = new BinaryWriter();

/** Runs `write` on a clean writer and returns a fresh copy of what it wrote. */
export function encodeWith(write: (writer: BinaryWriter) => void): Uint8Array {
  const writer = idle ?? new BinaryWriter();
  idle = undefined;
  try {
    write(writer);
    return writer.finish();
  } catch (error) {
    writer.finish();
    throw error;
  } finally {
    idle = writer;
  }
}
