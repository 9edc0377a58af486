import { once } from "node:events";
import type { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { startWorkerModule } from "./start-worker-module.js";

async function firstMessage(worker: Worker): Promise<unknown> {
  try {
    const [message] = (await Promise.race([
      once(worker, "message"),
      once(worker, "error").then(([error]) => Promise.reject(error as Error)),
    ])) as [unknown];
    return message;
  } finally {
    await worker.terminate();
  }
}

describe("startWorkerModule", () => {
  it("runs the built JavaScript module when it exists", async () => {
    const worker = startWorkerModule(new URL("./test-fixtures/plain-thread.js", import.meta.url), {
      workerData: { n: 1 },
      argv: ["x"],
    });
    expect(await firstMessage(worker)).toEqual({ fromSource: false, workerData: { n: 1 }, argv: ["x"] });
  });

  it("runs the TypeScript source when only it exists, bundled, with stack traces into the .ts", async () => {
    const worker = startWorkerModule(new URL("./test-fixtures/echo-thread.js", import.meta.url), {
      workerData: { n: 2 },
      argv: ["y"],
    });
    expect(await firstMessage(worker)).toEqual({
      fromSource: true,
      workerData: { n: 2 },
      argv: ["y"],
      gateWords: 3,
      stack: expect.stringContaining("echo-thread.ts") as unknown,
    });
  });

  it("refuses a module that exists neither built nor as source", () => {
    expect(() => startWorkerModule(new URL("./test-fixtures/missing-thread.js", import.meta.url))).toThrow(
      /missing-thread\.js does not exist/,
    );
  });
});
