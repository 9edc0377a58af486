// The record a live broker keeps under its lease: its node id and the addresses clients are told to use — the primary
// Kafka address, and the advertised address of each Kafka listener by name (Metadata answers a client with the
// other brokers' addresses on the listener it came in on), and its Pulsar plaintext and TLS addresses (LOOKUP
// redirects name both).
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
  /** Advertised address by Kafka listener name (absent in records of brokers that do not publish them). */
  readonly kafkaListeners?: Readonly<Record<string, Address>>;
  /** Absent when the broker serves no Pulsar clients. */
  readonly pulsar?: Address;
  /** The Pulsar TLS listener's address (pulsar+ssl://), when the broker has one. */
  readonly pulsarTls?: Address;
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

function isAddressMap(value: unknown): value is Record<string, Address> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every(isAddress);
}

function copyAddressMap(map: Record<string, Address>): Record<string, Address> {
  return Object.fromEntries(Object.entries(map).map(([name, { host, port }]) => [name, { host, port }]));
}

/** The address `record` advertises on Kafka listener `listenerName` (its primary one without a name); undefined when it has no such listener. */
export function kafkaAddressOn(record: BrokerRecord, listenerName: string | undefined): Address | undefined {
  if (listenerName === undefined || record.kafkaListeners === undefined) return record.kafka;
  return Object.hasOwn(record.kafkaListeners, listenerName) ? record.kafkaListeners[listenerName] : undefined;
}

/** Decodes a stored record. Throws `DECODE_ERROR` for bytes that are not one. */
export function decodeBrokerRecord(bytes: Uint8Array): BrokerRecord {
  let value: unknown;
  try {
    value = JSON.parse(DECODER.decode(bytes));
  } catch (cause) {
    throw new NereusError(ErrorCode.DECODE_ERROR, "a broker record is not JSON", { retryable: false, cause });
  }
  const { nodeId, kafka, pulsar, pulsarTls, kafkaListeners } = (value ?? {}) as Record<string, unknown>;
  if (
    !Number.isInteger(nodeId) ||
    (nodeId as number) < 0 ||
    !isAddress(kafka) ||
    (pulsar !== undefined && !isAddress(pulsar)) ||
    (pulsarTls !== undefined && !isAddress(pulsarTls)) ||
    (kafkaListeners !== undefined && !isAddressMap(kafkaListeners))
  )
    throw new NereusError(ErrorCode.DECODE_ERROR, "a broker record lacks its node id or addresses", {
      retryable: false,
    });
  return {
    nodeId: nodeId as number,
    kafka: { host: kafka.host, port: kafka.port },
    ...(kafkaListeners === undefined ? {} : { kafkaListeners: copyAddressMap(kafkaListeners) }),
    ...(pulsar === undefined ? {} : { pulsar: { host: pulsar.host, port: pulsar.port } }),
    ...(pulsarTls === undefined ? {} : { pulsarTls: { host: pulsarTls.host, port: pulsarTls.port } }),
  };
}
