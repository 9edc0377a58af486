// Client side (tests, test clients): encodes a request into a complete frame (int32 size prefix, request
// header v1 or v2, body) and decodes a response frame (size prefix removed) for a known request. Accepts every
// version the codec defines, not only the advertised range. The inverse of decode-request/encode-response.
import { ByteReader, ByteWriter, ErrorCode, NereusError } from "@nereus/core";
import { type RequestHeader, requestHeaderVersion, writeRequestHeader } from "./headers/request-header.js";
import { type ResponseHeader, readResponseHeader, responseHeaderVersion } from "./headers/response-header.js";
import { payloadSizeHint } from "./schema/payload-size-hint.js";
import { type RequestBody, type ResponseBody, type SupportedApiKey, findSupportedApi } from "./supported-apis.js";

/** Header fields a client chooses for one request. */
export interface RequestTarget<K extends SupportedApiKey> {
  readonly apiKey: K;
  readonly apiVersion: number;
  readonly correlationId: number;
  readonly clientId: string | null;
}

function apiFor(apiKey: number): NonNullable<ReturnType<typeof findSupportedApi>> {
  const api = findSupportedApi(apiKey);
  if (api === undefined) throw new NereusError(ErrorCode.INVALID_ARGUMENT, `no codec for api key ${String(apiKey)}`);
  return api;
}

/** Encodes a request frame (with its size prefix). */
export function encodeRequest<K extends SupportedApiKey>(target: RequestTarget<K>, body: RequestBody<K>): Uint8Array {
  const api = apiFor(target.apiKey);
  const writer = new ByteWriter(payloadSizeHint(body));
  const size = writer.reserveLength();
  const header: RequestHeader = {
    apiKey: target.apiKey,
    apiVersion: target.apiVersion,
    correlationId: target.correlationId,
    clientId: target.clientId,
  };
  writeRequestHeader(writer, header, requestHeaderVersion(api.request.isFlexible(target.apiVersion)));
  api.request.write(writer, body as never, target.apiVersion);
  writer.patchLength(size);
  return writer.finish();
}

/** A decoded response frame. */
export interface DecodedResponse<K extends SupportedApiKey> {
  readonly header: ResponseHeader;
  readonly body: ResponseBody<K>;
}

/** Decodes a response frame (size prefix removed) to the request described by `request`. */
export function decodeResponse<K extends SupportedApiKey>(
  request: { readonly apiKey: K; readonly apiVersion: number },
  frame: Uint8Array,
): DecodedResponse<K> {
  const api = apiFor(request.apiKey);
  const reader = new ByteReader(
    frame,
    `Kafka response (api key ${String(request.apiKey)} v${String(request.apiVersion)})`,
  );
  const header = readResponseHeader(
    reader,
    responseHeaderVersion(request.apiKey, api.response.isFlexible(request.apiVersion)),
  );
  const body = api.response.read(reader, request.apiVersion) as ResponseBody<K>;
  reader.expectEnd();
  return { header, body };
}
