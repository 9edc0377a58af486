// A stream head for tests of code that consumes heads (adapters, session planning): a fresh head of a placeholder
// stream ("s-test", profile OBJECT_WAL_SYNC_OBJECT, created at 0) with the fields a test cares about overridden.
// It is not validated: a test may build a head the codecs would refuse.
import { freshStreamHead } from "../domain/fresh-stream-head.js";
import type { StreamHead } from "../domain/stream-head.js";

/** A fresh head with `overrides` applied. */
export function streamHeadFixture(overrides: Partial<StreamHead> = {}): StreamHead {
  return {
    ...freshStreamHead({
      streamId: "s-test",
      streamName: "test",
      profile: "OBJECT_WAL_SYNC_OBJECT",
      attributes: {},
      createdAtMillis: 0,
    }),
    ...overrides,
  };
}
