// The topics a member of a "consumer" protocol group subscribed to, read from the protocol metadata it sent in
// JoinGroup (Kafka's ConsumerProtocolSubscription v0-3, not flexible: int16 version, then `topics` as an int32 count
// of int16-length UTF-8 strings; the fields after them are not needed). OffsetDelete refuses to delete the offsets of
// a topic an active group is subscribed to. Undefined when the metadata cannot be read: callers then assume every
// topic is subscribed (as Kafka does when it cannot tell).
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The subscribed topics in `metadata`, or undefined when it is not a readable consumer subscription. */
export function subscribedTopics(metadata: Uint8Array): string[] | undefined {
  const view = new DataView(metadata.buffer, metadata.byteOffset, metadata.byteLength);
  let position = 0;
  const need = (bytes: number): boolean => position + bytes <= metadata.byteLength;
  if (!need(6)) return undefined;
  const version = view.getInt16(position);
  position += 2;
  if (version < 0) return undefined;
  const count = view.getInt32(position);
  position += 4;
  if (count < 0 || count * 2 > metadata.byteLength - position) return undefined;
  const topics: string[] = [];
  for (let index = 0; index < count; index += 1) {
    if (!need(2)) return undefined;
    const length = view.getInt16(position);
    position += 2;
    if (length < 0 || !need(length)) return undefined;
    try {
      topics.push(UTF8.decode(metadata.subarray(position, position + length)));
    } catch {
      return undefined;
    }
    position += length;
  }
  return topics;
}
