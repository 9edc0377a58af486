// The WAL-provider conformance suite: one behaviour suite every primary-WAL provider (the in-memory reference,
// the Object WAL over S3, the BookKeeper WAL) runs, pinning the WalWriter/WalReader invariants the append
// pipeline relies on: prepare freezes exact bytes and counts without I/O, persist is idempotent per prepared
// attempt, targets read back exactly, protection fits in the head transaction, corruption is detected.
// Registers vitest tests; it starts no services (the caller's factory does).
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bytesEqual } from "../bytes/compare-bytes.js";
import { crc32c } from "../bytes/crc32c.js";
import type { AppendEntry, PayloadFormat } from "../domain/append-types.js";
import type { ReadTarget } from "../domain/read-target.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { streamIdFromName } from "../identity/stream-id-from-name.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { StoredEntry, WalReader, WalWriteRequest, WalWriter } from "../spi/wal.js";

/** What the factory hands to each test. */
export interface WalProviderConformanceFixture {
  readonly writer: WalWriter;
  /** A reader serving the writer's target type. */
  readonly reader: WalReader;
  /** Metadata store `protect` may read (and the suite commits protections to). */
  readonly metadata: MetadataStore;
  /** Makes the stored bytes of `target` differ from what was written (required when `supportsCorruption`). */
  readonly corrupt?: (target: ReadTarget) => Promise<void>;
  readonly cleanup?: () => Promise<void>;
}

export interface WalProviderConformanceOptions {
  /** Register the corruption-detection test (the fixture must then provide `corrupt`). */
  readonly supportsCorruption?: boolean;
}

const CHECKSUM_CODES: readonly string[] = [ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH, ErrorCode.OBJECT_CHECKSUM_MISMATCH];
const encoder = new TextEncoder();

export function describeWalProviderConformance(
  name: string,
  createFixture: () => Promise<WalProviderConformanceFixture>,
  options: WalProviderConformanceOptions = {},
): void {
  const withFixture = (test: (fixture: WalProviderConformanceFixture) => Promise<void>) => async (): Promise<void> => {
    const fixture = await createFixture();
    try {
      await test(fixture);
    } finally {
      await fixture.cleanup?.();
    }
  };
  let sequence = 0;
  const request = (
    fixture: WalProviderConformanceFixture,
    entries: readonly AppendEntry[],
    format: PayloadFormat = "OPAQUE_RECORD_BATCH",
  ): WalWriteRequest => {
    sequence += 1;
    return {
      streamId: streamIdFromName(`wal-conformance-${randomBytes(8).toString("hex")}`),
      attemptId: `conformance-${randomBytes(8).toString("hex")}/${String(sequence)}`,
      writerId: "conformance-writer",
      writerEpoch: 1,
      expectedStartOffset: 0,
      payloadFormat: format,
      entries,
    };
  };
  const opaque = (...texts: string[]): AppendEntry[] =>
    texts.map((text) => ({ payload: encoder.encode(text), recordCount: 1 }));
  const otherType = (fixture: WalProviderConformanceFixture): ReadTarget =>
    fixture.writer.walKind === "OBJECT"
      ? {
          type: "BOOKKEEPER_ENTRY_RANGE",
          version: 1,
          clusterAlias: "none",
          ledgerId: "1",
          firstEntryId: 0,
          entryCount: 1,
          rangeChecksum: 0,
        }
      : {
          type: "OBJECT_SLICE",
          version: 1,
          objectKey: "none",
          objectType: "MEMORY_OBJECT",
          sliceOffset: 0,
          sliceLength: 1,
          sliceChecksum: 0,
          entryCount: 1,
        };

  describe(`WAL provider conformance: ${name}`, () => {
    it(
      "prepare freezes the exact bytes and reports counts, logical bytes and the payload CRC32C",
      withFixture(async (fixture) => {
        const entries = [
          { payload: encoder.encode("alpha"), recordCount: 3 },
          { payload: new Uint8Array(0), recordCount: 1 },
          { payload: encoder.encode("gamma!"), recordCount: 2 },
        ];
        const prepared = fixture.writer.prepare(request(fixture, entries, "KAFKA_RECORD_BATCH"));
        expect(prepared.entryCount).toBe(3);
        expect(prepared.recordCount).toBe(6);
        expect(prepared.logicalBytes).toBe(11);
        let checksum = 0;
        for (const entry of entries) checksum = crc32c(entry.payload, checksum);
        expect(prepared.payloadChecksum).toBe(checksum);
        (entries[0] as AppendEntry).payload.fill(0x21);
        const persisted = await fixture.writer.persist(prepared);
        const read = await fixture.reader.readEntries(persisted.readTarget);
        expect(read.map((entry) => new TextDecoder().decode(entry.payload))).toEqual(["alpha", "", "gamma!"]);
        expect(read.map((entry) => entry.recordCount)).toEqual([3, 1, 2]);
      }),
    );

    it(
      "entries that carry their payload CRC32C give the same payload checksum, and read back exactly",
      withFixture(async (fixture) => {
        const payloads = [encoder.encode("alpha"), new Uint8Array(0), encoder.encode("gamma!")];
        const entries = payloads.map((payload) => ({ payload, recordCount: 1, payloadCrc32c: crc32c(payload) }));
        const prepared = fixture.writer.prepare(request(fixture, entries));
        let checksum = 0;
        for (const payload of payloads) checksum = crc32c(payload, checksum);
        expect(prepared.payloadChecksum).toBe(checksum);
        const read = await fixture.reader.readEntries((await fixture.writer.persist(prepared)).readTarget);
        expect(read.map((entry) => new TextDecoder().decode(entry.payload))).toEqual(["alpha", "", "gamma!"]);
      }),
    );

    it(
      "persist returns a target of the writer's kind that reads back exactly, entry by entry",
      withFixture(async (fixture) => {
        const persisted = await fixture.writer.persist(
          fixture.writer.prepare(request(fixture, opaque("one", "two", "three"))),
        );
        expect(persisted.readTarget.type).toBe(
          fixture.writer.walKind === "OBJECT" ? "OBJECT_SLICE" : "BOOKKEEPER_ENTRY_RANGE",
        );
        expect(fixture.reader.targetTypes).toContain(persisted.readTarget.type);
        const read = await fixture.reader.readEntries(persisted.readTarget);
        expect(read.map((entry) => new TextDecoder().decode(entry.payload))).toEqual(["one", "two", "three"]);
        expect(read.every((entry) => entry.recordCount === 1)).toBe(true);
      }),
    );

    it(
      "persisting the same prepared write again yields the same target and bytes",
      withFixture(async (fixture) => {
        const prepared = fixture.writer.prepare(request(fixture, opaque("idempotent")));
        const first = await fixture.writer.persist(prepared);
        const second = await fixture.writer.persist(prepared);
        expect(second.readTarget).toEqual(first.readTarget);
        const read = await fixture.reader.readEntries(second.readTarget);
        expect(new TextDecoder().decode(read[0]?.payload)).toBe("idempotent");
      }),
    );

    it(
      "different attempts get different targets and both stay readable",
      withFixture(async (fixture) => {
        const a = await fixture.writer.persist(fixture.writer.prepare(request(fixture, opaque("a"))));
        const b = await fixture.writer.persist(fixture.writer.prepare(request(fixture, opaque("b"))));
        expect(b.readTarget).not.toEqual(a.readTarget);
        expect(new TextDecoder().decode((await fixture.reader.readEntries(a.readTarget))[0]?.payload)).toBe("a");
        expect(new TextDecoder().decode((await fixture.reader.readEntries(b.readTarget))[0]?.payload)).toBe("b");
      }),
    );

    it(
      "accelerations.readEntriesMany (when the reader offers it) returns, per target and in order, what readEntries does",
      withFixture(async (fixture) => {
        const accelerations = fixture.reader.accelerations;
        if (accelerations?.readEntriesMany === undefined) return;
        const persisted = await Promise.all(
          ["one", "two", "three"].map((text) =>
            fixture.writer.persist(fixture.writer.prepare(request(fixture, opaque(text, `${text}-b`)))),
          ),
        );
        const targets = persisted.map((item) => item.readTarget);
        const many = accelerations.readEntriesMany([...targets, otherType(fixture)]);
        expect(many).toHaveLength(4);
        // Every promise gets a handler before any is awaited: each settles on its own.
        const settled = await Promise.allSettled(many);
        const decoded = (entries: readonly StoredEntry[]): string[] =>
          entries.map((entry) => `${String(entry.recordCount)}:${new TextDecoder().decode(entry.payload)}`);
        for (const [index, target] of targets.entries()) {
          const result = settled[index];
          expect(result?.status).toBe("fulfilled");
          if (result?.status === "fulfilled")
            expect(decoded(result.value)).toEqual(decoded(await fixture.reader.readEntries(target)));
        }
        // A target the reader cannot serve fails its own promise only.
        const refused = settled[3];
        expect(
          refused?.status === "rejected" && NereusError.hasCode(refused.reason, ErrorCode.UNSUPPORTED_READ_TARGET),
        ).toBe(true);
      }),
    );

    it(
      "round-trips a large payload and many small entries",
      withFixture(async (fixture) => {
        const big = new Uint8Array(1024 * 1024).map((_value, index) => index % 251);
        const large = await fixture.writer.persist(
          fixture.writer.prepare(request(fixture, [{ payload: big, recordCount: 1 }])),
        );
        const readBig = (await fixture.reader.readEntries(large.readTarget))[0]?.payload ?? new Uint8Array(0);
        expect(bytesEqual(readBig, big), "1 MiB payload read back differs").toBe(true);
        const many = Array.from({ length: 500 }, (_value, index) => ({
          payload: encoder.encode(`entry-${String(index)}`),
          recordCount: 1,
        }));
        const small = await fixture.writer.persist(fixture.writer.prepare(request(fixture, many)));
        const read = await fixture.reader.readEntries(small.readTarget);
        expect(read).toHaveLength(500);
        expect(new TextDecoder().decode(read[499]?.payload)).toBe("entry-499");
      }),
    );

    it(
      "protect returns conditions and writes that commit in one metadata transaction",
      withFixture(async (fixture) => {
        const persisted = await fixture.writer.persist(fixture.writer.prepare(request(fixture, opaque("protected"))));
        const protection = await fixture.writer.protect(persisted, "conformancecommitid", fixture.metadata);
        expect(protection.compares.length + protection.writes.length).toBeLessThanOrEqual(64);
        const result = await fixture.metadata.txn({ compares: protection.compares, writes: protection.writes });
        expect(result.succeeded).toBe(true);
      }),
    );

    it(
      "a reader refuses a target type it does not serve with UNSUPPORTED_READ_TARGET",
      withFixture(async (fixture) => {
        let caught: unknown;
        try {
          await fixture.reader.readEntries(otherType(fixture));
        } catch (error) {
          caught = error;
        }
        expect(NereusError.hasCode(caught, ErrorCode.UNSUPPORTED_READ_TARGET)).toBe(true);
      }),
    );

    it(
      "persist with an aborted signal fails without returning a target",
      withFixture(async (fixture) => {
        const controller = new AbortController();
        controller.abort();
        const prepared = fixture.writer.prepare(request(fixture, opaque("never")));
        await expect(fixture.writer.persist(prepared, { signal: controller.signal })).rejects.toSatisfy(
          (error: unknown) => NereusError.is(error),
        );
      }),
    );

    if (options.supportsCorruption === true) {
      it(
        "a target whose stored bytes changed fails its checksum instead of returning wrong data",
        withFixture(async (fixture) => {
          const persisted = await fixture.writer.persist(
            fixture.writer.prepare(request(fixture, opaque("fragile", "bytes"))),
          );
          if (fixture.corrupt === undefined) throw new Error("supportsCorruption needs fixture.corrupt");
          await fixture.corrupt(persisted.readTarget);
          let caught: unknown;
          try {
            await fixture.reader.readEntries(persisted.readTarget);
          } catch (error) {
            caught = error;
          }
          expect(
            NereusError.is(caught) && CHECKSUM_CODES.includes(caught.code),
            `expected a checksum error, got ${String(caught)}`,
          ).toBe(true);
        }),
      );
    }
  });
}
