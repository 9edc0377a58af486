import { ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { classifyPutFailure, mapS3Error } from "./map-s3-error.js";

/** The shape @aws-sdk gives service errors: a name/Code and the HTTP status in $metadata. */
function serviceError(name: string, httpStatusCode: number): Error {
  return Object.assign(new Error(name), { name, Code: name, $metadata: { httpStatusCode } });
}

function networkError(code: string): Error {
  return Object.assign(new Error(`socket ${code}`), { code, $metadata: {} });
}

const context = { operation: "get", bucket: "b", key: "k" } as const;

describe("classifyPutFailure", () => {
  it("separates 412, 409, ambiguous failures and definitive refusals", () => {
    expect(classifyPutFailure(serviceError("PreconditionFailed", 412), undefined)).toBe("exists");
    expect(classifyPutFailure(serviceError("ConditionalRequestConflict", 409), undefined)).toBe("conflict");
    expect(classifyPutFailure(networkError("ECONNRESET"), undefined)).toBe("ambiguous");
    expect(classifyPutFailure(Object.assign(new Error("aborted"), { name: "TimeoutError" }), undefined)).toBe(
      "ambiguous",
    );
    expect(classifyPutFailure(serviceError("InternalError", 500), undefined)).toBe("ambiguous");
    expect(classifyPutFailure(serviceError("SlowDown", 503), undefined)).toBe("ambiguous");
    expect(classifyPutFailure(serviceError("NotImplemented", 501), undefined)).toBe("failed");
    expect(classifyPutFailure(serviceError("AccessDenied", 403), undefined)).toBe("failed");
    expect(classifyPutFailure(serviceError("BadDigest", 400), undefined)).toBe("failed");
  });

  it("treats anything after the caller aborted as failed (it maps to CANCELLED)", () => {
    const controller = new AbortController();
    controller.abort();
    expect(classifyPutFailure(networkError("ECONNRESET"), controller.signal)).toBe("failed");
  });
});

describe("mapS3Error", () => {
  it.each([
    [serviceError("NoSuchKey", 404), "get", ErrorCode.OBJECT_NOT_FOUND, false],
    [serviceError("NotFound", 404), "head", ErrorCode.OBJECT_NOT_FOUND, false],
    [serviceError("NoSuchBucket", 404), "get", ErrorCode.OBJECT_READ_FAILED, false],
    [serviceError("NoSuchBucket", 404), "put", ErrorCode.OBJECT_UPLOAD_FAILED, false],
    [serviceError("PreconditionFailed", 412), "put", ErrorCode.OBJECT_ALREADY_EXISTS, false],
    [serviceError("BadDigest", 400), "put", ErrorCode.OBJECT_CHECKSUM_MISMATCH, false],
    [serviceError("InvalidRange", 416), "get", ErrorCode.INVALID_ARGUMENT, false],
    [serviceError("AccessDenied", 403), "list", ErrorCode.OBJECT_READ_FAILED, false],
    [serviceError("SlowDown", 503), "delete", ErrorCode.OBJECT_UPLOAD_FAILED, true],
    [serviceError("InternalError", 500), "get", ErrorCode.OBJECT_READ_FAILED, true],
    [serviceError("RequestTimeout", 400), "put", ErrorCode.OBJECT_UPLOAD_FAILED, true],
    [networkError("ECONNREFUSED"), "head", ErrorCode.OBJECT_READ_FAILED, true],
    [
      new Error(
        'Checksum mismatch: expected "AAAAAA==" but received "AAAAAQ==" in response header "x-amz-checksum-crc32c".',
      ),
      "get",
      ErrorCode.OBJECT_CHECKSUM_MISMATCH,
      false,
    ],
  ] as const)("maps %s during %s to %s (retryable %s)", (error, operation, code, retryable) => {
    const mapped = mapS3Error(error, { ...context, operation });
    expect(mapped.code).toBe(code);
    expect(mapped.retryable).toBe(retryable);
    expect(mapped.cause).toBe(error);
    expect(mapped.details).toMatchObject({ operation, bucket: "b", key: "k" });
  });

  it("maps anything to CANCELLED once the caller's signal aborted, and to TIMEOUT when the store's deadline fired", () => {
    const controller = new AbortController();
    controller.abort();
    expect(mapS3Error(serviceError("InternalError", 500), { ...context, signal: controller.signal }).code).toBe(
      ErrorCode.CANCELLED,
    );
    const timedOut = mapS3Error(Object.assign(new Error("aborted"), { name: "AbortError" }), {
      ...context,
      timedOut: true,
    });
    expect(timedOut.code).toBe(ErrorCode.TIMEOUT);
    expect(timedOut.retryable).toBe(true);
  });

  it("passes NereusErrors through unchanged", () => {
    const original = new NereusError(ErrorCode.INVALID_ARGUMENT, "bad");
    expect(mapS3Error(original, context)).toBe(original);
  });
});
