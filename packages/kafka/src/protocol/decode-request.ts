// Broker side: turns one request frame (size prefix already removed by FrameDecoder) into a typed request.
// Reads api key and version, picks the header version (v2 when the body version is flexible), decodes the body
// with the API's codec and rejects trailing bytes. Requests for an API or version outside SUPPORTED_APIS are
// returned as values so the caller can answer ApiVersions with UNSUPPORTED_VERSION (Kafka's rule) and close
// the connection otherwise. Malformed bytes always raise NereusError(DECODE_ERROR) with the byte offset.
import { ByteReader } from "@nereus/core";
import { type RequestHeader, readRequestHeader, requestHeaderVersion } from "./headers/request-header.js";
import { readInt16 } from "./primitives/fixed-width.js";
import { type RequestBody, type SupportedApiKey, findSupportedApi } from "./supported-apis.js";

/** A decoded request of a supported API and version, discriminated by `apiKey`. */
export type KafkaRequest = {
  [K in SupportedApiKey]: {
    readonly kind: "request";
    readonly apiKey: K;
    readonly apiVersion: number;
    /** Same as `header.correlationId`. */
    readonly correlationId: number;
    readonly header: RequestHeader;
    readonly body: RequestBody<K>;
  };
}[SupportedApiKey];

/** A request whose version is outside the advertised range of a supported API (the body is not decoded). */
export interface UnsupportedVersionRequest {
  readonly kind: "unsupported-version";
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly correlationId: number;
  /** Header read as v1 (client id included); header tags, if any, are not read. */
  readonly header: RequestHeader;
  readonly minVersion: number;
  readonly maxVersion: number;
}

/** A request for an API key without a codec here (the body is not decoded). */
export interface UnknownApiRequest {
  readonly kind: "unknown-api";
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly correlationId: number;
  readonly header: RequestHeader;
}

/** What {@link decodeRequest} returns. */
export type DecodedRequest = KafkaRequest | UnsupportedVersionRequest | UnknownApiRequest;

/** Decodes one request frame. Byte fields of the body are views into `frame`. */
export function decodeRequest(frame: Uint8Array): DecodedRequest {
  const peek = new ByteReader(frame, "Kafka request");
  const apiKey = readInt16(peek, "RequestHeader.apiKey");
  const apiVersion = readInt16(peek, "RequestHeader.apiVersion");
  const reader = new ByteReader(frame, `Kafka request (api key ${String(apiKey)} v${String(apiVersion)})`);
  const api = findSupportedApi(apiKey);
  if (api === undefined) {
    const header = readRequestHeader(reader, 1);
    return { kind: "unknown-api", apiKey, apiVersion, correlationId: header.correlationId, header };
  }
  if (apiVersion < api.minVersion || apiVersion > api.maxVersion) {
    const header = readRequestHeader(reader, 1);
    return {
      kind: "unsupported-version",
      apiKey,
      apiVersion,
      correlationId: header.correlationId,
      header,
      minVersion: api.minVersion,
      maxVersion: api.maxVersion,
    };
  }
  const header = readRequestHeader(reader, requestHeaderVersion(apiVersion >= api.flexibleFrom));
  const body = api.request.read(reader, apiVersion);
  reader.expectEnd();
  return {
    kind: "request",
    apiKey,
    apiVersion,
    correlationId: header.correlationId,
    header,
    body,
  } as unknown as KafkaRequest;
}
