// Orphan objects seen from a broker on etcd + s3proxy: an object under the cluster's prefix that no root names (what
// a lost PUT response or an aborted attempt leaves) is deleted by the broker's inventory sweeps once seen so for
// orphanAgeMs, and counted as ORPHAN_OBJECT in /metrics; the objects of topics produced meanwhile all have roots and
// stay — every record reads back byte for byte.
import { randomBytes } from "node:crypto";
import { createS3ObjectStore } from "@nereus/object-wal";
import { loadServices } from "@nereus/test-services";
import { afterEach, describe, expect, test } from "vitest";
import { KafkajsFixture, waitFor } from "./support/kafkajs-fixture.js";

const services = loadServices();
const fixture = new KafkajsFixture();
afterEach(() => fixture.cleanup());

describe("orphan objects", () => {
  test("an object no root names is deleted after orphanAgeMs; produced records keep their objects", async () => {
    const { broker, kafka } = await fixture.start("cluster", {
      storage: { reclamation: { sweepIntervalMs: 300, orphanAgeMs: 1_500 } },
    });
    const cluster = String(broker.config.cluster);
    const bucket = await createS3ObjectStore({
      endpoint: services.s3.endpoint,
      region: services.s3.region,
      bucket: services.s3.bucket,
      forcePathStyle: true,
      keyPrefix: `${cluster}/`,
      credentials: { accessKeyId: services.s3.accessKeyId, secretAccessKey: services.s3.secretAccessKey },
    });
    try {
      const orphanKey = `${cluster}/wal/v1/orphan-${randomBytes(6).toString("hex")}.nrs`;
      await bucket.putIfAbsent(orphanKey, randomBytes(4_321));
      const topic = `kept-${randomBytes(4).toString("hex")}`;
      const admin = await fixture.admin(kafka);
      await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
      const producer = kafka.producer({ allowAutoTopicCreation: false });
      await producer.connect();
      const values = Array.from({ length: 40 }, () => randomBytes(256).toString("hex"));
      for (let index = 0; index < values.length; index += 4) {
        await producer.send({
          topic,
          acks: -1,
          messages: values.slice(index, index + 4).map((value, at) => ({ value, partition: (index + at) % 2 })),
        });
      }
      await producer.disconnect();
      await waitFor("the orphan to be deleted", async () => (await bucket.head(orphanKey)) === undefined, 20_000);
      const scrape = await (await fetch(`http://127.0.0.1:${String(broker.broker.adminPort)}/metrics`)).text();
      expect(scrape).toContain('nereus_reclamation_bytes_freed_total{kind="ORPHAN_OBJECT"} 4321');

      // Several sweeps later every produced record still reads back.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const { consumer, received } = await fixture.readFromBeginning(kafka, topic);
      await waitFor("every record", () => received.length >= values.length);
      await consumer.stop();
      const got = received.map((line) => line.slice(line.indexOf(":") + 1)).sort();
      expect(got).toEqual([...values].sort());
    } finally {
      await bucket.close();
    }
  }, 60_000);
});
