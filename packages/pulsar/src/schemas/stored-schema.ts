// One registered schema version of a topic, and when a schema a client declares needs no registration or matches a
// registered one. The schemas of a partitioned topic are its partitions' schemas.
import { bytesEqual } from "@nereus/core/internal";
import { type KeyValue, type SchemaInfo, SchemaType } from "../protocol/index.js";

/**
 * A registered schema version. Invariants: `topic` is a canonical topic name that is not a partition; `version` in
 * [0, 2^63 - 1] and unique per topic; `type` a Schema.Type number other than None and AutoConsume.
 */
export interface StoredSchema {
  readonly topic: string;
  readonly version: bigint;
  /** A {@link SchemaType} value. */
  readonly type: number;
  /** The definition (Avro or JSON schema text, protobuf descriptor; empty for primitive types). */
  readonly data: Uint8Array;
  readonly properties: readonly KeyValue[];
  readonly createdAtMillis: number;
}

/**
 * True for schemas that are never registered and go with any topic: the bytes schema (None; Java's Schema.BYTES) and
 * AutoConsume (a consumer that takes the topic's schema, whatever it is).
 */
export function needsNoRegistration(schema: SchemaInfo | undefined): boolean {
  return schema === undefined || schema.type === SchemaType.None || schema.type === SchemaType.AutoConsume;
}

/** True when `schema` is the stored version `stored`: same type and same definition bytes (properties aside). */
export function isSameSchema(stored: StoredSchema, schema: SchemaInfo): boolean {
  return stored.type === schema.type && bytesEqual(stored.data, schema.schemaData);
}
