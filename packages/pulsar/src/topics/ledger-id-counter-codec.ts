// PulsarLedgerIds record codec (NRM1 recordType "PulsarLedgerIds", schema 1): the smallest virtual ledger id no topic
// incarnation has been given and none skipped, stored at P/pulsar/ledger-ids. Allocation hands out the next multiple
// of 1024 above 2^62 at or above it and moves it just past that id with a compare-and-swap, so ids are unique across
// brokers and restarts and never reused (an id allocated by a creation that then lost its race is skipped).
// Payload: nextLedgerId i64 in [2^62, 2^63 - 1].
import { ErrorCode, NereusError } from "@nereus/core";
import { type RecordCodec, defineRecordCodec } from "@nereus/core/internal";
import { readInt64, writeInt64 } from "../records/int64-field.js";
import { MAX_VIRTUAL_LEDGER_ID, MIN_VIRTUAL_LEDGER_ID } from "./pulsar-topic.js";

/** The ledger id counter. */
export interface LedgerIdCounter {
  readonly nextLedgerId: bigint;
}

/** The codec of the ledger id counter; `expectedKey` is the only key it is stored at. */
export function ledgerIdCounterCodec(expectedKey: string): RecordCodec<LedgerIdCounter> {
  return defineRecordCodec({
    recordType: "PulsarLedgerIds",
    schemaVersion: 1,
    validate(counter, checks) {
      const next = counter.nextLedgerId;
      checks.require(
        typeof next === "bigint" && next >= MIN_VIRTUAL_LEDGER_ID && next <= MAX_VIRTUAL_LEDGER_ID + 1n,
        `nextLedgerId ${String(next)} is outside [2^62, 2^63 - 1]`,
      );
    },
    parseKey(key) {
      if (key !== expectedKey) {
        throw new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not the ledger id counter key`);
      }
    },
    matchKey() {
      // The key names no component of the record.
    },
    write(writer, counter) {
      writeInt64(writer, counter.nextLedgerId);
    },
    read(reader): LedgerIdCounter {
      return { nextLedgerId: readInt64(reader, "nextLedgerId") };
    },
  });
}
