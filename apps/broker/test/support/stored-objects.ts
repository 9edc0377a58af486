// What a test broker's object store holds, read from outside the broker: the files under the objects directory of
// the embedded store (the bytes on disk), or the keys under the cluster's prefix in the S3 bucket (listed with the
// store's own S3 client). Used to check that storage reclamation gives bytes back.
import fs from "node:fs";
import path from "node:path";
import { type BrokerConfig, BrokerConfigSchema, type BrokerConfigInput } from "../../src/index.js";
import { createS3ObjectStore } from "@nereus/object-wal";

/** Object key (or file path relative to the objects directory) → size in bytes. */
export type StoredObjects = ReadonlyMap<string, number>;

async function filesUnder(root: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const entries = await fs.promises.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const stats = await fs.promises.stat(file).catch(() => undefined);
    if (stats !== undefined) found.set(path.relative(root, file), stats.size);
  }
  return found;
}

async function keysUnder(
  spec: Extract<BrokerConfig["storage"]["objects"], { kind: "s3" }>,
): Promise<Map<string, number>> {
  const store = await createS3ObjectStore({
    region: spec.region,
    bucket: spec.bucket,
    forcePathStyle: spec.forcePathStyle,
    keyPrefix: "",
    ...(spec.endpoint === undefined ? {} : { endpoint: spec.endpoint }),
    ...(spec.accessKeyId === undefined || spec.secretAccessKey === undefined
      ? {}
      : { credentials: { accessKeyId: spec.accessKeyId, secretAccessKey: spec.secretAccessKey } }),
  });
  const found = new Map<string, number>();
  try {
    let continuationToken: string | undefined;
    do {
      const page = await store.list(spec.keyPrefix, {
        limit: 1_000,
        ...(continuationToken === undefined ? {} : { continuationToken }),
      });
      for (const item of page.items) found.set(item.key, item.size);
      continuationToken = page.continuationToken;
    } while (continuationToken !== undefined);
  } finally {
    await store.close();
  }
  return found;
}

/** Every object the broker configured by `input` has stored now. */
export async function storedObjects(input: BrokerConfigInput): Promise<StoredObjects> {
  const config = BrokerConfigSchema.parse(input);
  const spec = config.storage.objects;
  if (spec.kind === "s3") return keysUnder(spec);
  return filesUnder(path.resolve(config.dataDir, spec.root ?? "objects"));
}

/** The total size of `objects`. */
export function totalBytes(objects: StoredObjects): number {
  let total = 0;
  for (const size of objects.values()) total += size;
  return total;
}
