// Typed access to node-zookeeper-client 1.1.3 (a pure-JS CommonJS ZooKeeper client without its own types),
// loaded through `createRequire` so no ambient `declare module` leaks into (or collides with) other packages'
// type space. Only the subset ZooKeeperSession uses is typed; shapes follow the library's index.js and lib/*.js.
import { createRequire } from "node:module";
import type { EventEmitter } from "node:events";

export interface ZooKeeperStat {
  /** int64 fields arrive as 8-byte big-endian buffers. */
  readonly ctime: Buffer;
  readonly mtime: Buffer;
  readonly ephemeralOwner: Buffer;
  readonly version: number;
  readonly cversion: number;
  readonly dataLength: number;
  readonly numChildren: number;
}

export interface ZooKeeperException extends Error {
  readonly code: number;
  readonly name: string;
  readonly path?: string;
}

interface ZooKeeperClientOptions {
  readonly sessionTimeout?: number;
  readonly spinDelay?: number;
  readonly retries?: number;
}

export interface ZooKeeperClient extends EventEmitter {
  connect(): void;
  close(): void;
  create(
    path: string,
    data: Buffer | undefined,
    mode: number,
    callback: (error: ZooKeeperException | null, path: string) => void,
  ): void;
  remove(path: string, version: number, callback: (error: ZooKeeperException | null) => void): void;
  setData(
    path: string,
    data: Buffer,
    version: number,
    callback: (error: ZooKeeperException | null, stat: ZooKeeperStat) => void,
  ): void;
  getData(
    path: string,
    callback: (error: ZooKeeperException | null, data: Buffer | null | undefined, stat: ZooKeeperStat) => void,
  ): void;
  exists(
    path: string,
    callback: (error: ZooKeeperException | null, stat: ZooKeeperStat | null | undefined) => void,
  ): void;
  getChildren(
    path: string,
    callback: (error: ZooKeeperException | null, children: string[], stat: ZooKeeperStat) => void,
  ): void;
}

/** The library's module object (the subset used). */
export interface NodeZooKeeperClientModule {
  createClient(connectionString: string, options?: ZooKeeperClientOptions): ZooKeeperClient;
  readonly CreateMode: {
    readonly PERSISTENT: number;
    readonly EPHEMERAL: number;
    readonly EPHEMERAL_SEQUENTIAL: number;
  };
  readonly Exception: {
    readonly NO_NODE: number;
    readonly BAD_VERSION: number;
    readonly NODE_EXISTS: number;
    readonly NOT_EMPTY: number;
  };
}

/** node-zookeeper-client, typed. */
export const nodeZooKeeperClient = createRequire(import.meta.url)("node-zookeeper-client") as NodeZooKeeperClientModule;
