// Broker side: encodes a response body for a decoded request into a complete frame (int32 size prefix, response
// header, body). The header version follows the request: v1 for flexible versions, v0 otherwise and always v0
// for ApiVersions. `encodeResponse` returns fresh bytes owned by the caller; `encodeResponseParts` returns the frame
// as parts, large byte fields (Fetch records) by reference, for a vectored write.
import { ByteWriter, ErrorCode, NereusError } from "@nereus/core";
import { SharingByteWriter } from "./frames/sharing-byte-writer.js";
import { responseHeaderVersion } from "./headers/response-header.js";
import { payloadSizeHint } from "./schema/payload-size-hint.js";
import { type ResponseBody, type SupportedApiKey, findSupportedApi } from "./supported-apis.js";

/** Which request a response answers. A decoded {@link KafkaRequest} fits as is. */
export interface ResponseTarget<K extends SupportedApiKey> {
  readonly apiKey: K;
  readonly apiVersion: number;
  readonly correlationId: number;
}

/** Encodes `body` as the size-prefixed response frame to `request`. */
export function encodeResponse<K extends SupportedApiKey>(
  request: ResponseTarget<K>,
  body: ResponseBody<K>,
): Uint8Array {
  const api = findSupportedApi(request.apiKey);
  if (api === undefined)
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `no codec for api key ${String(request.apiKey)}`);
  const writer = new ByteWriter(payloadSizeHint(body));
  const size = writer.reserveLength();
  writer.writeI32(request.correlationId);
  if (responseHeaderVersion(request.apiKey, api.response.isFlexible(request.apiVersion)) === 1) writer.writeU8(0);
  api.response.write(writer, body as never, request.apiVersion);
  writer.patchLength(size);
  return writer.finish();
}

/** Byte fields at least this long are not copied into a response frame built by {@link encodeResponseParts}. */
export const SHARED_FIELD_BYTES = 32 * 1024;

/**
 * `body` as the size-prefixed response frame to `request`, in parts whose concatenation is exactly what
 * {@link encodeResponse} returns: byte fields of {@link SHARED_FIELD_BYTES} or more are the body's own arrays (not
 * copied), the rest is freshly encoded. Write the parts in order (e.g. corked, as one writev).
 */
export function encodeResponseParts<K extends SupportedApiKey>(
  request: ResponseTarget<K>,
  body: ResponseBody<K>,
): Uint8Array[] {
  const api = findSupportedApi(request.apiKey);
  if (api === undefined)
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `no codec for api key ${String(request.apiKey)}`);
  const writer = new SharingByteWriter(payloadSizeHint(body, SHARED_FIELD_BYTES), SHARED_FIELD_BYTES);
  writer.writeI32(0);
  writer.writeI32(request.correlationId);
  if (responseHeaderVersion(request.apiKey, api.response.isFlexible(request.apiVersion)) === 1) writer.writeU8(0);
  api.response.write(writer, body as never, request.apiVersion);
  writer.setU32(0, writer.totalLength - 4);
  return writer.parts();
}
