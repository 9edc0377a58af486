// A generic error answer for a request whose body could not be decoded or whose handler failed: the API's
// default response body for that version with its top-level error code set, where the API has one. Clients see
// an error (or, for APIs that report errors per partition only, no results) instead of a dropped connection.
import { findSupportedApi } from "../protocol/supported-apis.js";
import type { ResponseBody, SupportedApiKey } from "../protocol/supported-apis.js";

/** The default body of API `apiKey` with `errorCode` set on its top-level error field, if any. */
export function errorResponseBody<K extends SupportedApiKey>(apiKey: K, errorCode: number): ResponseBody<K> {
  const api = findSupportedApi(apiKey);
  if (api === undefined) throw new TypeError(`no codec for api key ${String(apiKey)}`);
  const body = api.response.body.defaultValue() as Record<string, unknown>;
  if ("errorCode" in body) body["errorCode"] = errorCode;
  return body as ResponseBody<K>;
}
