// The head of a stream that has just been created: ACTIVE, nothing committed (end, size, version and trim at 0, no
// last commit) and no append session. Creation writes exactly this value (lifecycle/create-stream-head.ts); tests
// start from it. It reads no clock and derives no id: the caller supplies the identity and creation time.
import type { StreamHead } from "./stream-head.js";

/** What a new head takes from its creator. */
export type StreamHeadIdentity = Pick<
  StreamHead,
  "streamId" | "streamName" | "profile" | "attributes" | "createdAtMillis"
>;

/** The head of a stream with nothing committed yet. */
export function freshStreamHead(identity: StreamHeadIdentity): StreamHead {
  return {
    streamId: identity.streamId,
    streamName: identity.streamName,
    state: "ACTIVE",
    profile: identity.profile,
    attributes: identity.attributes,
    createdAtMillis: identity.createdAtMillis,
    committedEndOffset: 0,
    cumulativeSize: 0,
    commitVersion: 0,
    trimOffset: 0,
    lastCommitId: "",
    session: undefined,
  };
}
