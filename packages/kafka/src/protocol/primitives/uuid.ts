// Kafka UUIDs (topic ids): 16 raw bytes on the wire, the canonical lowercase 8-4-4-4-12 hex form in objects.
// The all-zero UUID means "no id".
import type { ByteReader, ByteWriter } from "@nereus/core";
import { invalidArgument } from "./invalid-argument.js";

/** The all-zero UUID Kafka uses for "no topic id". */
export const ZERO_UUID = "00000000-0000-0000-0000-000000000000";

const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** Reads 16 bytes as a lowercase hyphenated UUID string. */
export function readUuid(reader: ByteReader, field: string): string {
  const bytes = reader.readBytes(16, field);
  let out = "";
  for (let index = 0; index < 16; index += 1) {
    if (index === 4 || index === 6 || index === 8 || index === 10) out += "-";
    out += HEX[bytes[index] ?? 0];
  }
  return out;
}

/** Writes a hyphenated UUID string (either case) as 16 bytes. */
export function writeUuid(writer: ByteWriter, value: string, field = "uuid"): void {
  if (typeof value !== "string" || !UUID_PATTERN.test(value)) throw invalidArgument(field, value, "not a UUID");
  const hex = value.replaceAll("-", "");
  const bytes = new Uint8Array(16);
  for (let index = 0; index < 16; index += 1) bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  writer.writeBytes(bytes);
}
