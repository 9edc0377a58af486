// The providers installed in one StreamStore, indexed by what a profile needs: a WAL writer per primary WAL
// kind, a WAL reader per read-target type, a completion coordinator per ack boundary. Built once at construction;
// duplicates are a wiring error (INVALID_ARGUMENT), never "last one wins".
import type { ReadTargetType } from "../domain/read-target.js";
import type { AppendAckBoundary, PrimaryWalKind } from "../domain/storage-profile.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { CompletionCoordinator } from "../spi/completion.js";
import { WAL_SPI_VERSION, type WalReader, type WalWriter } from "../spi/wal.js";

/** The read-target type each primary WAL kind produces. */
export const TARGET_TYPE_OF_WAL: Readonly<Record<PrimaryWalKind, ReadTargetType>> = {
  OBJECT: "OBJECT_SLICE",
  BOOKKEEPER: "BOOKKEEPER_ENTRY_RANGE",
};

export interface ProviderRegistryOptions {
  readonly walWriters: readonly WalWriter[];
  readonly walReaders: readonly WalReader[];
  readonly completionCoordinators: readonly CompletionCoordinator[];
}

/** Immutable lookup of installed providers. Invariant: at most one provider per kind/type/boundary. */
export class ProviderRegistry {
  readonly #writers = new Map<PrimaryWalKind, WalWriter>();
  readonly #readers = new Map<ReadTargetType, WalReader>();
  readonly #coordinators = new Map<AppendAckBoundary, CompletionCoordinator>();

  constructor(options: ProviderRegistryOptions) {
    for (const writer of options.walWriters) {
      if (writer.spiVersion !== WAL_SPI_VERSION)
        throw wiring(`WAL writer for ${writer.walKind} implements SPI ${String(writer.spiVersion)}`);
      if (this.#writers.has(writer.walKind)) throw wiring(`two WAL writers for ${writer.walKind}`);
      this.#writers.set(writer.walKind, writer);
    }
    for (const reader of options.walReaders) {
      if (reader.spiVersion !== WAL_SPI_VERSION) throw wiring(`WAL reader implements SPI ${String(reader.spiVersion)}`);
      for (const type of reader.targetTypes) {
        if (this.#readers.has(type)) throw wiring(`two WAL readers for ${type}`);
        this.#readers.set(type, reader);
      }
    }
    for (const coordinator of options.completionCoordinators) {
      if (this.#coordinators.has(coordinator.boundary))
        throw wiring(`two completion coordinators for ${coordinator.boundary}`);
      this.#coordinators.set(coordinator.boundary, coordinator);
    }
  }

  writer(kind: PrimaryWalKind): WalWriter | undefined {
    return this.#writers.get(kind);
  }

  reader(type: ReadTargetType): WalReader | undefined {
    return this.#readers.get(type);
  }

  coordinator(boundary: AppendAckBoundary): CompletionCoordinator | undefined {
    return this.#coordinators.get(boundary);
  }
}

function wiring(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, `stream store wiring: ${message}`, { retryable: false });
}
