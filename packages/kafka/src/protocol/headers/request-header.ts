// Kafka request header, hand-written because its ClientId ignores flexibility (it stays an int16-length string
// even in header v2):
//
//   RequestHeader v0 => request_api_key:INT16 request_api_version:INT16 correlation_id:INT32
//   RequestHeader v1 => v0 client_id:NULLABLE_STRING
//   RequestHeader v2 => v1 TAG_BUFFER            (used whenever the request body version is flexible)
//
// Unknown header tags are kept raw in `unknownTaggedFields`.
import type { ByteReader, ByteWriter } from "@nereus/core";
import { readInt16, writeInt16 } from "../primitives/fixed-width.js";
import { readKafkaString, writeKafkaString } from "../primitives/kafka-string.js";
import { type RawTaggedField, readTaggedFields, writeTaggedFields } from "../primitives/tagged-fields.js";

/** A decoded request header. */
export interface RequestHeader {
  apiKey: number;
  apiVersion: number;
  /** Echoed in the response so the client can match it; responses go back in request order. */
  correlationId: number;
  /** Null in header v0 and when the client sent none. */
  clientId: string | null;
  unknownTaggedFields?: RawTaggedField[];
}

/** Header version 0, 1 or 2. */
export type RequestHeaderVersion = 0 | 1 | 2;

const CLIENT_ID_LAYOUT = { compact: false, nullable: true } as const;

/** The header version a request uses: 2 when its body version is flexible, else 1. */
export function requestHeaderVersion(flexible: boolean): RequestHeaderVersion {
  return flexible ? 2 : 1;
}

/** Reads a request header of the given version. */
export function readRequestHeader(reader: ByteReader, headerVersion: RequestHeaderVersion): RequestHeader {
  const apiKey = readInt16(reader, "RequestHeader.apiKey");
  const apiVersion = readInt16(reader, "RequestHeader.apiVersion");
  const correlationId = reader.readI32("RequestHeader.correlationId");
  const header: RequestHeader = { apiKey, apiVersion, correlationId, clientId: null };
  if (headerVersion >= 1) header.clientId = readKafkaString(reader, "RequestHeader.clientId", CLIENT_ID_LAYOUT);
  if (headerVersion >= 2) {
    const tagged = readTaggedFields(reader, "RequestHeader tagged fields");
    if (tagged.length > 0) header.unknownTaggedFields = tagged;
  }
  return header;
}

/** Writes a request header of the given version. */
export function writeRequestHeader(
  writer: ByteWriter,
  header: RequestHeader,
  headerVersion: RequestHeaderVersion,
): void {
  writeInt16(writer, header.apiKey);
  writeInt16(writer, header.apiVersion);
  writer.writeI32(header.correlationId);
  if (headerVersion >= 1) writeKafkaString(writer, header.clientId, CLIENT_ID_LAYOUT, "RequestHeader.clientId");
  if (headerVersion >= 2) writeTaggedFields(writer, header.unknownTaggedFields ?? []);
}
