// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the ambient module types must travel with this file into dependent projects
/// <reference path="./types/node-zookeeper-client.d.ts" />
// Small promise wrapper over node-zookeeper-client for the harness: connect with a deadline, read a node's
// stat, always close. Used for bookie registration checks.
import zookeeper from "node-zookeeper-client";
import type { Client, Stat } from "node-zookeeper-client";

/** Connects to `connectString`, runs `body`, closes the session. The connect is bounded by `timeoutMs`. */
export async function withZooKeeper<T>(
  connectString: string,
  body: (client: Client) => Promise<T>,
  timeoutMs = 5000,
): Promise<T> {
  const client = zookeeper.createClient(connectString, { sessionTimeout: 10_000, spinDelay: 100, retries: 0 });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ZooKeeper session with ${connectString} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      client.once("connected", () => {
        clearTimeout(timer);
        resolve();
      });
      client.connect();
    });
    return await body(client);
  } finally {
    client.close();
  }
}

/** Stat of `path`, or undefined when the node does not exist. */
export function statOf(client: Client, path: string): Promise<Stat | undefined> {
  return new Promise((resolve, reject) => {
    client.exists(path, (error, stat) => {
      if (error === null) resolve(stat ?? undefined);
      else reject(error);
    });
  });
}

/** The session that owns an ephemeral node, as hex ("" for a persistent node). */
export function ephemeralOwnerHex(stat: Stat): string {
  const hex = stat.ephemeralOwner.toString("hex");
  return /^0+$/.test(hex) ? "" : hex;
}
