// What the cursor conformance suite and the history property run against: one set of store clients (metadata,
// objects, and a core StreamStore over the same metadata), the cluster they use, and a way to open fresh clients
// on the same data (a restart). Any metadata/object store pair supplies one of these.
import type { MetadataStore, ObjectStore, StorageProfileName, StreamStore } from "@nereus/core";

/** One process's clients of the stores a cursor store needs. */
export interface CursorStoreClients {
  readonly metadata: MetadataStore;
  readonly objects: ObjectStore;
  /** A core StreamStore over `metadata` (the suite creates, appends to and trims its streams through it). */
  readonly streams: StreamStore;
  /** Closes these clients (never the data). */
  close(): Promise<void>;
}

/**
 * One isolated data set of the suite. Invariant: every client set `reopen` returns sees the same metadata, objects
 * and stream data as the first one, under the same `cluster` (the suite's stream names are unique per run, so one
 * fixture may serve many tests).
 */
export interface CursorConformanceFixture extends CursorStoreClients {
  /** Cluster of both the stream store and the cursor stores the suite builds. */
  readonly cluster: string;
  /** Profile of the streams the suite creates (default `BOOKKEEPER_WAL_ONLY`: the stream store must run it). */
  readonly streamProfile?: StorageProfileName;
  /** Fresh clients on the same data: what a restarted process opens. */
  reopen(): Promise<CursorStoreClients>;
  /** Closes the first clients and removes what the fixture created. */
  cleanup(): Promise<void>;
}

/** Opens one fixture (called once per test). */
export type OpenCursorConformanceFixture = () => Promise<CursorConformanceFixture>;
