// The client address ACL host entries are compared with, from a listener's peer string ("127.0.0.1:53122",
// "[::1]:53122"); an IPv4-mapped IPv6 address becomes its IPv4 form, as Kafka sees it.

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The host part of `peer` (the whole string when it carries no port). */
export function peerHost(peer: string): string {
  let host: string;
  if (peer.startsWith("[")) {
    const end = peer.indexOf("]");
    host = end < 0 ? peer : peer.slice(1, end);
  } else {
    const colon = peer.lastIndexOf(":");
    host = colon < 0 || peer.indexOf(":") !== colon ? peer : peer.slice(0, colon);
  }
  return MAPPED_IPV4.exec(host)?.[1] ?? host;
}
