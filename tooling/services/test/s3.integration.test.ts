// s3proxy is real and usable from @aws-sdk/client-s3 v3: If-None-Match:* lets exactly one of 8 concurrent
// writers win (the rest get 412), ranged GETs return exact bytes, and a wrong CRC32C is rejected while the
// right one is stored and returned; a request signed with a wrong secret is refused (the proxy requires credentials).
import { randomBytes, randomUUID } from "node:crypto";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, describe, expect, it } from "vitest";
import { loadServices, s3ClientOptions } from "../src/index.js";
import { crc32c } from "./support/crc32c.js";

const s3 = loadServices().s3;
const client = new S3Client({
  ...s3ClientOptions(s3),
  maxAttempts: 1,
});

afterAll(() => client.destroy());

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

describe("s3proxy", () => {
  it("refuses a request signed with a wrong secret and one without credentials", async () => {
    const wrong = new S3Client({
      ...s3ClientOptions(s3),
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: "not-the-secret" },
      maxAttempts: 1,
    });
    try {
      const error = await wrong.send(new ListObjectsV2Command({ Bucket: s3.bucket })).catch((e: unknown) => e);
      expect(statusOf(error)).toBe(403);
    } finally {
      wrong.destroy();
    }
    const anonymous = await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2`);
    expect(anonymous.status).toBe(403);
    expect(
      (await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, MaxKeys: 1 }))).$metadata.httpStatusCode,
    ).toBe(200);
  });

  it("lets exactly one of 8 concurrent If-None-Match:* PUTs win; the others get 412", async () => {
    const key = `race/${randomUUID()}`;
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        try {
          const out = await client.send(
            new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: Buffer.from(`writer-${i}`), IfNoneMatch: "*" }),
          );
          return { i, status: out.$metadata.httpStatusCode, name: "ok" };
        } catch (error) {
          return { i, status: statusOf(error), name: (error as Error).name };
        }
      }),
    );
    const winners = outcomes.filter((o) => o.status === 200);
    const losers = outcomes.filter((o) => o.status !== 200);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(7);
    for (const loser of losers) {
      expect(loser.status).toBe(412);
      expect(loser.name).toBe("PreconditionFailed");
    }
    const stored = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    expect(await stored.Body?.transformToString()).toBe(`writer-${winners[0]?.i}`);
  });

  it("returns the exact bytes of a ranged GET", async () => {
    const key = `range/${randomUUID()}`;
    const data = randomBytes(64 * 1024);
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: data }));
    const ranged = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key, Range: "bytes=1000-5095" }));
    expect(ranged.$metadata.httpStatusCode).toBe(206);
    expect(ranged.ContentRange).toBe(`bytes 1000-5095/${data.length}`);
    const bytes = Buffer.from((await ranged.Body?.transformToByteArray()) ?? []);
    expect(bytes.equals(data.subarray(1000, 5096))).toBe(true);
    const suffix = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key, Range: "bytes=-100" }));
    expect(
      Buffer.from((await suffix.Body?.transformToByteArray()) ?? []).equals(data.subarray(data.length - 100)),
    ).toBe(true);
  });

  it("rejects a wrong x-amz-checksum-crc32c and stores a right one", async () => {
    expect(crc32c(Buffer.from("123456789")).toString("hex")).toBe("e3069283");
    const body = Buffer.from(`payload ${randomUUID()}`);
    const right = crc32c(body);
    const wrong = Buffer.alloc(4);
    wrong.writeUInt32BE((right.readUInt32BE(0) ^ 0xdeadbeef) >>> 0);

    const badKey = `checksum/bad-${randomUUID()}`;
    const rejected = await client
      .send(
        new PutObjectCommand({ Bucket: s3.bucket, Key: badKey, Body: body, ChecksumCRC32C: wrong.toString("base64") }),
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(rejected).toBeDefined();
    expect(statusOf(rejected)).toBe(400);
    const missing = await client
      .send(new GetObjectCommand({ Bucket: s3.bucket, Key: badKey }))
      .then(() => 200, statusOf);
    expect(missing).toBe(404);

    const goodKey = `checksum/good-${randomUUID()}`;
    await client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: goodKey, Body: body, ChecksumCRC32C: right.toString("base64") }),
    );
    const got = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: goodKey, ChecksumMode: "ENABLED" }));
    expect(got.ChecksumCRC32C).toBe(right.toString("base64"));
    expect(Buffer.from((await got.Body?.transformToByteArray()) ?? []).equals(body)).toBe(true);
  });
});
