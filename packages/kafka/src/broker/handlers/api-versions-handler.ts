// ApiVersions (18): the advertised ranges of exactly the APIs this broker answers (built-in handlers plus the
// group handlers it was given), with the per-API caps applied (none by default: see ADVERTISED_VERSION_CAPS).
import { type MaxVersionCaps, apiVersionsResponseBody } from "../../protocol/advertised-api-versions.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";

/** Answers ApiVersions with the ranges `caps` leaves (a cap below an API's minimum hides it). */
export function createApiVersionsHandler(caps: MaxVersionCaps): KafkaApiHandler<18> {
  return {
    handle: () => Promise.resolve(apiVersionsResponseBody({ caps })),
  };
}
