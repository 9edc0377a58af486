// ZooKeeper look-ups for tests, through node-zookeeper-client (a real client session each time).
import zookeeper from "node-zookeeper-client";

/** Writable bookies registered under `<ledgersRoot>/available` (the `readonly` child excluded). */
export async function availableBookies(connectString: string, ledgersRoot: string): Promise<string[]> {
  const client = zookeeper.createClient(connectString, { sessionTimeout: 10_000, retries: 0 });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ZooKeeper session with ${connectString}`)), 5_000);
      client.once("connected", () => {
        clearTimeout(timer);
        resolve();
      });
      client.connect();
    });
    const children = await new Promise<string[]>((resolve, reject) => {
      client.getChildren(`${ledgersRoot}/available`, (error, names) =>
        error === null ? resolve(names) : reject(error),
      );
    });
    return children.filter((name) => name !== "readonly").sort();
  } finally {
    client.close();
  }
}
