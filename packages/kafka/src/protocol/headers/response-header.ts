// Kafka response header:
//
//   ResponseHeader v0 => correlation_id:INT32
//   ResponseHeader v1 => v0 TAG_BUFFER           (flexible response versions)
//
// Exception: ApiVersions responses always use v0, even for flexible versions, so that a client can read the
// reply whatever version it asked for.
import type { ByteReader, ByteWriter } from "@nereus/core";
import { type RawTaggedField, readTaggedFields, writeTaggedFields } from "../primitives/tagged-fields.js";

/** A decoded response header. */
export interface ResponseHeader {
  correlationId: number;
  unknownTaggedFields?: RawTaggedField[];
}

/** Header version 0 or 1. */
export type ResponseHeaderVersion = 0 | 1;

const API_VERSIONS_KEY = 18;

/** The header version of a response: 0 for ApiVersions and non-flexible bodies, else 1. */
export function responseHeaderVersion(apiKey: number, flexible: boolean): ResponseHeaderVersion {
  return flexible && apiKey !== API_VERSIONS_KEY ? 1 : 0;
}

/** Reads a response header of the given version. */
export function readResponseHeader(reader: ByteReader, headerVersion: ResponseHeaderVersion): ResponseHeader {
  const header: ResponseHeader = { correlationId: reader.readI32("ResponseHeader.correlationId") };
  if (headerVersion >= 1) {
    const tagged = readTaggedFields(reader, "ResponseHeader tagged fields");
    if (tagged.length > 0) header.unknownTaggedFields = tagged;
  }
  return header;
}

/** Writes a response header of the given version. */
export function writeResponseHeader(
  writer: ByteWriter,
  header: ResponseHeader,
  headerVersion: ResponseHeaderVersion,
): void {
  writer.writeI32(header.correlationId);
  if (headerVersion >= 1) writeTaggedFields(writer, header.unknownTaggedFields ?? []);
}
