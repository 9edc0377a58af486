// The 16 raw bytes of a topic id (a lowercase UUID) and back, as the topic records store them. No validation: the
// record codecs check ids against UUID_PATTERN before encoding and after decoding.

/** Lowercase UUID text (8-4-4-4-12 hex digits). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The all-zero UUID, which Kafka uses for "no topic id". */
export const ZERO_TOPIC_ID = "00000000-0000-0000-0000-000000000000";

/** The raw bytes of `uuid`. */
export function topicIdBytes(uuid: string): Uint8Array {
  const hex = uuid.replaceAll("-", "");
  const bytes = new Uint8Array(16);
  for (let index = 0; index < 16; index += 1) bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/** The lowercase UUID text of 16 raw bytes. */
export function topicIdText(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
