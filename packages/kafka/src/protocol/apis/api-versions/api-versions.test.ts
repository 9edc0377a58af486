import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, bool, cat, i16, i32, i64, str, tags } from "../../../../test/wire.js";
import { ApiVersionsRequest } from "./api-versions-request.js";
import { ApiVersionsResponse } from "./api-versions-response.js";

const request: ApiVersionsRequest = { clientSoftwareName: "nereus-test", clientSoftwareVersion: "1.0" };

const response: ApiVersionsResponse = {
  errorCode: 35,
  apiKeys: [
    { apiKey: 0, minVersion: 0, maxVersion: 11 },
    { apiKey: 18, minVersion: 0, maxVersion: 4 },
  ],
  throttleTimeMs: 5,
  supportedFeatures: [{ name: "metadata.version", minVersion: 1, maxVersion: 20 }],
  finalizedFeaturesEpoch: 7,
  finalizedFeatures: [{ name: "metadata.version", maxVersionLevel: 20, minVersionLevel: 1 }],
  zkMigrationReady: true,
};

describeGolden("api-versions", [
  {
    schema: ApiVersionsRequest,
    versions: versionsFrom(0, 4),
    sample: request,
    // v0-2: empty body. v3+: client_software_name, client_software_version (compact), tag buffer.
    wire: (v) => (v >= 3 ? cat(str(true, "nereus-test"), str(true, "1.0"), tags(true)) : ""),
  },
  {
    schema: ApiVersionsResponse,
    versions: versionsFrom(0, 4),
    sample: response,
    wire: (v) => {
      const f = v >= 3;
      return cat(
        i16(35),
        arr(
          f,
          response.apiKeys.map((key) => cat(i16(key.apiKey), i16(key.minVersion), i16(key.maxVersion), tags(f))),
        ),
        v >= 1 && i32(5),
        tags(f, [
          [0, arr(true, [cat(str(true, "metadata.version"), i16(1), i16(20), tags(true))])],
          [1, i64(7)],
          [2, arr(true, [cat(str(true, "metadata.version"), i16(20), i16(1), tags(true))])],
          [3, bool(true)],
        ]),
      );
    },
  },
]);
