// @aws-sdk/client-s3, an optional peer dependency of @nereus/object-wal: loaded when an S3 object store is created,
// so a user of the filesystem store does not install the AWS SDK.
import { importOptionalDependency, type OptionalDependency } from "@nereus/core/internal";
import type * as S3SdkModule from "@aws-sdk/client-s3";

/** The @aws-sdk/client-s3 module: the client and the command classes the S3 store sends. */
export type S3Sdk = typeof S3SdkModule;

/** The package, the range package.json declares for it, and its loader. */
export const AWS_S3_SDK: OptionalDependency<S3Sdk> = {
  packageName: "@aws-sdk/client-s3",
  versionRange: "^3.1175.0",
  neededBy: "the S3 object store (createS3ObjectStore of @nereus/object-wal)",
  load: () => import("@aws-sdk/client-s3"),
};

/** The @aws-sdk/client-s3 module. Throws `DEPENDENCY_UNAVAILABLE` naming the package when it cannot load. */
export async function loadS3Sdk(): Promise<S3Sdk> {
  return importOptionalDependency(AWS_S3_SDK);
}
