// Type declarations for the subset of node-zookeeper-client 1.1.3 (a pure-JS ZooKeeper client without its own
// types) that ZooKeeperSession uses. Shapes follow the library's index.js and lib/*.js.
declare module "node-zookeeper-client" {
  import type { EventEmitter } from "node:events";

  export interface Stat {
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
    getCode(): number;
  }

  export interface ClientOptions {
    readonly sessionTimeout?: number;
    readonly spinDelay?: number;
    readonly retries?: number;
  }

  export interface Client extends EventEmitter {
    connect(): void;
    close(): void;
    create(path: string, data: Buffer | undefined, mode: number, callback: (error: ZooKeeperException | null, path: string) => void): void;
    remove(path: string, version: number, callback: (error: ZooKeeperException | null) => void): void;
    setData(path: string, data: Buffer, version: number, callback: (error: ZooKeeperException | null, stat: Stat) => void): void;
    getData(path: string, callback: (error: ZooKeeperException | null, data: Buffer | null | undefined, stat: Stat) => void): void;
    exists(path: string, callback: (error: ZooKeeperException | null, stat: Stat | null | undefined) => void): void;
    getChildren(path: string, callback: (error: ZooKeeperException | null, children: string[], stat: Stat) => void): void;
  }

  export function createClient(connectionString: string, options?: ClientOptions): Client;

  export const CreateMode: {
    readonly PERSISTENT: number;
    readonly PERSISTENT_SEQUENTIAL: number;
    readonly EPHEMERAL: number;
    readonly EPHEMERAL_SEQUENTIAL: number;
  };

  export const Exception: {
    readonly OK: number;
    readonly CONNECTION_LOSS: number;
    readonly OPERATION_TIMEOUT: number;
    readonly NO_NODE: number;
    readonly NO_AUTH: number;
    readonly BAD_VERSION: number;
    readonly NO_CHILDREN_FOR_EPHEMERALS: number;
    readonly NODE_EXISTS: number;
    readonly NOT_EMPTY: number;
    readonly SESSION_EXPIRED: number;
  };
}
