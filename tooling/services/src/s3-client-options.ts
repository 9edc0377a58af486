// The connection settings of an S3 client for the harness's s3proxy, as the AWS SDK and Nereus's S3 object store
// take them. It only reshapes a service description (no I/O); callers add their own key prefix or retry settings.
import type { S3Description } from "./description.js";

/** What an S3 client needs to reach the described server. */
export interface S3ClientOptions {
  readonly endpoint: string;
  readonly region: string;
  readonly bucket: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  readonly forcePathStyle: true;
}

/** The client settings of `s3` (typically `loadServices().s3`). */
export function s3ClientOptions(s3: S3Description): S3ClientOptions {
  return {
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: s3.bucket,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    forcePathStyle: s3.forcePathStyle,
  };
}
