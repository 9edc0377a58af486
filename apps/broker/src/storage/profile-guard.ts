// The broker's gate on stream creation: a stream whose profile this broker cannot run is refused with
// UNSUPPORTED_STORAGE_PROFILE and a sentence naming what is missing (the Kafka adapter answers CreateTopics with
// INVALID_CONFIG and that message, the Pulsar adapter NotAllowed), before any metadata is written; a stream on a
// BookKeeper profile is marked before it is created (bookkeeper-stream-marks.ts). Every other member passes through,
// bound to the real store (its private fields need that).
import { ErrorCode, NereusError, type StreamStore, streamIdFromName } from "@nereus/core";
import { canonicalizeProfile } from "@nereus/core/internal";
import { BOOKKEEPER_PROFILES, type StorageServices, unservedProfileReason } from "../config/served-profiles.js";
import type { BookKeeperStreamMarks } from "./bookkeeper-stream-marks.js";

/** `store` with creation limited to the profiles `services` can run; BookKeeper streams marked in `marks`. */
export function guardProfiles(
  store: StreamStore,
  services: StorageServices,
  marks: BookKeeperStreamMarks | undefined,
): StreamStore {
  const createStream: StreamStore["createStream"] = async (name, options) => {
    const profile = canonicalizeProfile(options.profile);
    const reason = unservedProfileReason(services, profile);
    if (reason !== undefined)
      throw new NereusError(ErrorCode.UNSUPPORTED_STORAGE_PROFILE, reason, { retryable: false });
    if (marks !== undefined && BOOKKEEPER_PROFILES.has(profile))
      await marks.mark(streamIdFromName(name), name, options.signal);
    return store.createStream(name, options);
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === "createStream") return createStream;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...parameters: unknown[]) => unknown).bind(target) : value;
    },
  });
}
