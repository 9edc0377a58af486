// Test fixture of the broker-side command handlers: a Pulsar broker over core's in-memory metadata store, object
// store and WAL provider, and an in-process client connection that feeds it encoded frames and decodes every frame
// the broker writes back (no sockets). Test-only.
import {
  GenerationZeroVisibleCoordinator,
  StableHeadCoordinator,
  type StreamStore,
  type StreamStoreOptions,
  createStreamStore,
} from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { vi } from "vitest";
import { type PulsarBroker, type PulsarBrokerOptions, createPulsarBroker } from "../src/broker/pulsar-broker.js";
import type { ManagedLedgerLimits } from "../src/ledger/managed-ledger-options.js";
import type { PulsarConnection } from "../src/broker/pulsar-connection.js";
import {
  type CommandBody,
  type CommandOf,
  type CommandTypeName,
  type DecodedFrame,
  type PulsarCommand,
  decodeFrame,
  encodeCommandFrame,
  encodePayloadFrame,
} from "../src/protocol/index.js";

export const ADVERTISED_URL = "pulsar://broker.test:6650";
const TOTAL_SIZE_BYTES = 4;

/** Options of a harness broker: broker options, the ledgers' limits and clock, and the stream store's options. */
export type BrokerHarnessOptions = Partial<Omit<PulsarBrokerOptions, "ledgers" | "advertisedUrl">> & {
  readonly ledgerLimits?: Partial<ManagedLedgerLimits>;
  /** The ledgers' wall clock. */
  readonly clock?: () => number;
  readonly storeOptions?: Partial<StreamStoreOptions>;
};

/** A broker over fresh in-memory stores; `restart` builds a new broker over the same stores. */
export class BrokerHarness {
  readonly metadata = new InMemoryMetadataStore();
  readonly objects = new InMemoryObjectStore();
  readonly wal = new MemoryWalProvider({ walKind: "OBJECT" });
  streams!: StreamStore;
  broker!: PulsarBroker;
  readonly errors: unknown[] = [];
  readonly #options: BrokerHarnessOptions;

  constructor(options: BrokerHarnessOptions = {}) {
    this.#options = options;
    this.#open();
  }

  #open(): void {
    const { ledgerLimits, clock, storeOptions, ...brokerOptions } = this.#options;
    this.streams = createStreamStore({
      metadata: this.metadata,
      cluster: "pulsar-broker-test",
      writerId: "pulsar-broker-test",
      walWriters: [this.wal],
      walReaders: [this.wal],
      completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
      ...storeOptions,
    });
    this.broker = createPulsarBroker({
      ledgers: {
        metadata: this.metadata,
        objects: this.objects,
        streams: this.streams,
        cluster: "pulsar-broker-test",
        defaultProfile: "OBJECT_WAL_SYNC_OBJECT",
        ...(ledgerLimits === undefined ? {} : { ledgerLimits }),
        ...(clock === undefined ? {} : { clock }),
      },
      advertisedUrl: ADVERTISED_URL,
      producerNamePrefix: "test",
      onError: (error) => this.errors.push(error),
      ...brokerOptions,
    });
  }

  /**
   * A new broker and stream store over the same metadata, objects and WAL (a process restart). `crash`: the old
   * broker is abandoned without closing it (nothing it would write on close is written), as after kill -9.
   */
  async restart(options: { readonly crash?: boolean } = {}): Promise<void> {
    if (options.crash !== true) await this.broker.close();
    await this.streams.close();
    this.#open();
  }

  /** A new client connection to the broker. */
  connect(): TestClient {
    return new TestClient(this.broker);
  }

  async close(): Promise<void> {
    await this.broker.close();
    await this.streams.close();
  }
}

/** One in-process client: sends frames, records the decoded frames the broker wrote and whether it closed. */
export class TestClient {
  readonly connection: PulsarConnection;
  /** Every frame the broker wrote, decoded, in order. */
  readonly received: DecodedFrame[] = [];
  /** The raw bytes of each received frame (totalSize included). */
  readonly raw: Uint8Array[] = [];
  closedReason: string | undefined;
  /** Each request of the connection to stop ("pause") or go on ("resume") reading, in order. */
  readonly readRequests: ("pause" | "resume")[] = [];

  constructor(broker: PulsarBroker) {
    this.connection = broker.openConnection({
      write: (parts) => {
        const frame = concat(parts);
        this.raw.push(frame);
        this.received.push(decodeFrame(frame.subarray(TOTAL_SIZE_BYTES)));
      },
      close: (reason) => {
        this.closedReason = reason;
      },
      reads: {
        pauseReading: () => this.readRequests.push("pause"),
        resumeReading: () => this.readRequests.push("resume"),
      },
    });
  }

  /** Sends one command frame. */
  send(command: PulsarCommand): void {
    this.connection.handleFrame(encodeCommandFrame(command).subarray(TOTAL_SIZE_BYTES));
  }

  /** Sends one payload frame carrying `entry` (a message entry). */
  sendWithEntry(command: PulsarCommand, entry: Uint8Array): void {
    this.connection.handleFrame(encodePayloadFrame(command, entry).subarray(TOTAL_SIZE_BYTES));
  }

  /** The received commands of `type`, in order. */
  commands<T extends CommandTypeName>(type: T): CommandBody<T>[] {
    return this.received
      .map((frame) => frame.command)
      .filter((command): command is CommandOf<T> => command.type === type)
      .map((command) => command.body as CommandBody<T>);
  }

  /** The received frames of `type` (with their payloads). */
  frames(type: CommandTypeName): DecodedFrame[] {
    return this.received.filter((frame) => frame.command.type === type);
  }

  /** Waits until `count` commands of `type` arrived; returns them. */
  async waitFor<T extends CommandTypeName>(type: T, count = 1): Promise<CommandBody<T>[]> {
    await vi.waitFor(() => {
      if (this.commands(type).length < count) throw new Error(`waiting for ${String(count)} ${type}`);
    });
    return this.commands(type);
  }

  /** Waits until `condition` holds (at most `timeoutMs`). */
  async waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
    await vi.waitFor(
      () => {
        if (!condition()) throw new Error("condition not met yet");
      },
      { timeout: timeoutMs, interval: 5 },
    );
  }

  /** Sends CONNECT and waits for CONNECTED. */
  async handshake(protocolVersion = 21): Promise<void> {
    this.send({ type: "CONNECT", body: { clientVersion: "test-client", protocolVersion } });
    await this.waitFor("CONNECTED");
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
