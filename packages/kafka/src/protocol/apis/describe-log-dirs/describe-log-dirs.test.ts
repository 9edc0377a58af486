import { fromHex, toHex } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { describeGolden, versionsFrom } from "../../../../test/golden.js";
import { arr, bool, cat, i16, i32, i64, str, tags } from "../../../../test/wire.js";
import { DescribeLogDirsRequest } from "./describe-log-dirs-request.js";
import { DescribeLogDirsResponse } from "./describe-log-dirs-response.js";

describeGolden("describe-log-dirs", [
  {
    schema: DescribeLogDirsRequest,
    versions: versionsFrom(1, 4),
    sample: { topics: [{ topic: "orders", partitions: [0, 2] }] } satisfies DescribeLogDirsRequest,
    wire: (v) => {
      const f = v >= 2;
      return cat(arr(f, [cat(str(f, "orders"), arr(f, [i32(0), i32(2)]), tags(f))]), tags(f));
    },
  },
  {
    schema: DescribeLogDirsResponse,
    versions: versionsFrom(1, 4),
    sample: {
      throttleTimeMs: 0,
      errorCode: 0,
      results: [
        {
          errorCode: 0,
          logDir: "/var/lib/nereus",
          topics: [
            {
              name: "orders",
              partitions: [{ partitionIndex: 1, partitionSize: 123_456_789_012, offsetLag: 0, isFutureKey: false }],
            },
          ],
          totalBytes: 1_000_000_000_000,
          usableBytes: 400_000_000_000,
        },
      ],
    } satisfies DescribeLogDirsResponse,
    wire: (v) => {
      const f = v >= 2;
      const partitions = arr(f, [cat(i32(1), i64(123_456_789_012), i64(0), bool(false), tags(f))]);
      const topics = arr(f, [cat(str(f, "orders"), partitions, tags(f))]);
      const capacity = v >= 4 && cat(i64(1_000_000_000_000), i64(400_000_000_000));
      return cat(
        i32(0),
        v >= 3 && i16(0),
        arr(f, [cat(i16(0), str(f, "/var/lib/nereus"), topics, capacity, tags(f))]),
        tags(f),
      );
    },
  },
]);

describe("DescribeLogDirsRequest with topics null (every partition)", () => {
  it.each(versionsFrom(1, 4))("v%i encodes and decodes the null array", (version) => {
    const wire = cat(arr(version >= 2, null), tags(version >= 2));
    expect(toHex(DescribeLogDirsRequest.encode({ topics: null }, version))).toBe(wire);
    expect(DescribeLogDirsRequest.decode(fromHex(wire), version)).toEqual({ topics: null });
  });
});
