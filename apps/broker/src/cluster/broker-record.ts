// The record a live broker keeps under its lease: its node id and the addresses clients are told to use.
import { ErrorCode, NereusError } from "@nereus/core";

/** A host and port clients connect to. */
interface Address {
  readonly host: string;
  readonly port: number;
}

/** One registered broker. */
export interface BrokerRecord {
  readonly nodeId: number;
  readonly kafka: Address;
  /** Absent when the broker serves no Pulsar clients. */
  readonly pulsar?: Address;
}

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder("utf-8", { fatal: true });

/** The stored bytes of `record` (JSON). */
export function encodeBrokerRecord(record: BrokerRecord): Uint8Array {
  return ENCODER.encode(JSON.stringify(record));
}

function isAddress(value: unknown): value is Address {
  if (typeof value !== "object" || value === null) return false;
  const { host, port } = value as Record<string, unknown>;
  return typeof host === "string" && host.length > 0 && Number.isInteger(port) && (port as number) > 0;
}

/** Decodes a stored record. Throws `DECODE_ERROR` for bytes that are not one. */
export function decodeBrokerRecord(bytes: Uint8Array): BrokerRecord {
  let value: unknown;
  try {
    value = JSON.parse(DECODER.decode(bytes));
  } catch (cause) {
    throw new NereusError(ErrorCode.DECODE_ERROR, "a broker record is not JSON", { retryable: false, cause });
  }
  const { nodeId, kafka, pulsar } = (value ?? {}) as Record<string, unknown>;
  if (
    !Number.isInteger(nodeId) ||
    (nodeId as number) < 0 ||
    !isAddress(kafka) ||
    (pulsar !== undefined && !isAddress(pulsar))
  )
    throw new NereusError(ErrorCode.DECODE_ERROR, "a broker record lacks its node id or addresses", {
      retryable: false,
    });
  const record = { nodeId: nodeId as number, kafka: { host: kafka.host, port: kafka.port } };
  return pulsar === undefined ? record : { ...record, pulsar: { host: pulsar.host, port: pulsar.port } };
}
