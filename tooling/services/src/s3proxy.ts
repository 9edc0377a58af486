// s3proxy 4.x (Maven Central org.gaul:s3proxy, Java 17) on 127.0.0.1 with a filesystem-nio2 (default) or
// transient-nio2 store, AWS SigV4 auth with fixed test credentials, path-style; a test bucket is created at
// start. Ready when it answers HTTP and the bucket exists.
import fs from "node:fs";
import path from "node:path";
import { CreateBucketCommand, HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import type { S3Description } from "./description.js";
import type { ProcessRecord } from "./managed-process.js";
import { ensureArtifactSet } from "./maven-cache.js";
import { LOOPBACK } from "./ports.js";
import { ensureJava, type PrerequisiteContext } from "./prerequisites.js";
import { jvmFlags, logFile, runSubdir, spawnInRun, waitForReady, type RunContext } from "./run-context.js";

/** Fixed test credentials and names of the S3 service. */
export const S3_DEFAULTS = {
  accessKeyId: "nereus-test",
  secretAccessKey: "nereus-test-secret",
  region: "us-east-1",
  bucket: "nereus-test",
} as const;

/** Options for s3proxy. */
export interface S3Options {
  /** HTTP port (default: a free port). A taken port is a start error. */
  readonly port?: number;
  /** Bucket created at start (default "nereus-test"). */
  readonly bucket?: string;
  /** `filesystem` (default: blobs in the run dir, link(2)-atomic If-None-Match) or `transient` (in memory). */
  readonly backend?: "filesystem" | "transient";
  /** Max heap of the JVM in MiB (default 512). */
  readonly heapMb?: number;
  /** Readiness deadline (default 60 s). */
  readonly readyTimeoutMs?: number;
}

/** Checks what s3proxy needs (java, the cached jar); returns java and the classpath. */
export async function s3Prerequisites(ctx: PrerequisiteContext): Promise<{ java: string; classpath: string }> {
  const java = await ensureJava("s3", ctx);
  const libDir = await ensureArtifactSet("s3proxy", ctx);
  return { java, classpath: path.join(libDir, "*") };
}

/** Starts s3proxy on `port`, waits until it answers, and creates the test bucket. */
export async function startS3(
  ctx: RunContext,
  prereq: { java: string; classpath: string },
  port: number,
  options: S3Options,
): Promise<{ description: S3Description; process: ProcessRecord }> {
  const dir = runSubdir(ctx, "s3");
  const endpoint = `http://${LOOPBACK}:${port}`;
  const backend = options.backend ?? "filesystem";
  const properties = [
    `s3proxy.endpoint=${endpoint}`,
    "s3proxy.authorization=aws-v4",
    `s3proxy.identity=${S3_DEFAULTS.accessKeyId}`,
    `s3proxy.credential=${S3_DEFAULTS.secretAccessKey}`,
    `jclouds.provider=${backend}-nio2`,
    ...(backend === "filesystem" ? [`jclouds.filesystem.basedir=${runSubdir(ctx, "s3", "blobs")}`] : []),
    "",
  ];
  const propertiesFile = path.join(dir, "s3proxy.conf");
  fs.writeFileSync(propertiesFile, properties.join("\n"));
  const logback = path.join(dir, "logback.xml");
  fs.writeFileSync(
    logback,
    `<configuration>
  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{30} - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="OUT"/></root>
</configuration>
`,
  );
  const proc = spawnInRun(ctx, {
    name: "s3proxy",
    command: prereq.java,
    args: [
      ...jvmFlags(ctx, options.heapMb ?? 512),
      `-Dlogback.configurationFile=${logback}`,
      "-cp",
      prereq.classpath,
      "org.gaul.s3proxy.Main",
      "--properties",
      propertiesFile,
    ],
    cwd: dir,
    logFile: logFile(ctx, "s3proxy"),
    ports: [port],
  });
  const timeoutMs = options.readyTimeoutMs ?? 60_000;
  await waitForReady(
    "s3",
    proc,
    `s3proxy HTTP on ${endpoint}`,
    async () => {
      await fetch(`${endpoint}/`, { signal: AbortSignal.timeout(1000) });
      return true;
    },
    timeoutMs,
    50,
  );
  const bucket = options.bucket ?? S3_DEFAULTS.bucket;
  const client = new S3Client({
    endpoint,
    region: S3_DEFAULTS.region,
    forcePathStyle: true,
    maxAttempts: 1,
    credentials: { accessKeyId: S3_DEFAULTS.accessKeyId, secretAccessKey: S3_DEFAULTS.secretAccessKey },
  });
  try {
    await waitForReady(
      "s3",
      proc,
      `bucket ${bucket} on ${endpoint}`,
      async () => {
        try {
          await client.send(new CreateBucketCommand({ Bucket: bucket }));
        } catch (error) {
          const name = (error as { name?: string }).name;
          if (name !== "BucketAlreadyOwnedByYou" && name !== "BucketAlreadyExists") throw error;
        }
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
        return true;
      },
      timeoutMs,
      200,
    );
  } finally {
    client.destroy();
  }
  const description: S3Description = {
    endpoint,
    region: S3_DEFAULTS.region,
    bucket,
    accessKeyId: S3_DEFAULTS.accessKeyId,
    secretAccessKey: S3_DEFAULTS.secretAccessKey,
    forcePathStyle: true,
  };
  return { description, process: proc.record };
}
