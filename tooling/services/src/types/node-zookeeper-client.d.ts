// Minimal typings for node-zookeeper-client 1.1.3 (the package ships none): only what the harness and its
// tests use.
declare module "node-zookeeper-client" {
  import type { EventEmitter } from "node:events";

  export interface Stat {
    czxid: Buffer;
    mzxid: Buffer;
    ctime: Buffer;
    mtime: Buffer;
    version: number;
    cversion: number;
    aversion: number;
    ephemeralOwner: Buffer;
    dataLength: number;
    numChildren: number;
    pzxid: Buffer;
  }

  export class Exception extends Error {
    static readonly NO_NODE: number;
    static readonly NODE_EXISTS: number;
    static readonly BAD_VERSION: number;
    getCode(): number;
    getName(): string;
  }

  export const CreateMode: {
    readonly PERSISTENT: number;
    readonly PERSISTENT_SEQUENTIAL: number;
    readonly EPHEMERAL: number;
    readonly EPHEMERAL_SEQUENTIAL: number;
  };

  export interface ClientOptions {
    sessionTimeout?: number;
    spinDelay?: number;
    retries?: number;
  }

  export type Callback<T> = (error: Exception | Error | null, result: T, stat?: Stat) => void;

  export interface Client extends EventEmitter {
    connect(): void;
    close(): void;
    getSessionId(): Buffer;
    exists(path: string, callback: (error: Exception | Error | null, stat: Stat | null) => void): void;
    getChildren(
      path: string,
      callback: (error: Exception | Error | null, children: string[], stat: Stat) => void,
    ): void;
    getData(path: string, callback: (error: Exception | Error | null, data: Buffer | null, stat: Stat) => void): void;
    create(
      path: string,
      data: Buffer | null,
      mode: number,
      callback: (error: Exception | Error | null, path: string) => void,
    ): void;
    remove(path: string, version: number, callback: (error: Exception | Error | null) => void): void;
  }

  export function createClient(connectString: string, options?: ClientOptions): Client;

  const zookeeper: {
    createClient: typeof createClient;
    CreateMode: typeof CreateMode;
    Exception: typeof Exception;
  };
  export default zookeeper;
}
