// The admin API over HTTPS behind its auth gate: the health and metrics paths answer without credentials; every
// other path (the broker admin API, the Pulsar admin REST API) answers 401 with a WWW-Authenticate challenge without
// a token and with a wrong one, and serves a right one or a client certificate the CA signed; `nereus admin` reaches
// it with --token-file and --ca-file. The token never appears in the broker's log; hostile ClientHellos at the HTTPS
// port are closed without disturbing it.
import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runAdminCommand } from "../src/cli/admin-command.js";
import { type InProcessBroker, startInProcess, tempDir, testConfig } from "./support/broker-fixture.js";
import { sendHostileHellos } from "./support/hostile-hellos.js";
import { type TestCertificates, generateTestCertificates } from "./support/test-certificates.js";

const TOKEN = "0123456789abcdef-operations-token";
const SECOND = "fedcba9876543210-dashboard-token";
let certs: TestCertificates;
let broker: InProcessBroker;
let base: string;

beforeAll(async () => {
  certs = await generateTestCertificates();
  broker = await startInProcess(
    testConfig("embedded", {
      overrides: {
        pulsar: { enabled: false },
        log: { level: "debug" },
        admin: {
          tls: {
            certFile: certs.serverCertFile,
            keyFile: certs.serverKeyFile,
            caFile: certs.caFile,
            clientAuth: "requested",
          },
          auth: {
            tokens: [{ name: "dashboard", secret: SECOND }],
            tokenSecret: TOKEN,
            clientCertificates: true,
          },
        },
      },
    }),
  );
  base = `https://127.0.0.1:${String(broker.broker.adminPort)}`;
});

afterAll(async () => {
  await broker?.broker.close("test finished");
});

interface Answer {
  readonly status: number;
  readonly challenge: string | undefined;
  readonly body: string;
}

function get(
  urlPath: string,
  options: { token?: string; cert?: string; key?: string; ca?: string | undefined } = {},
): Promise<Answer> {
  const ca = "ca" in options ? options.ca : fs.readFileSync(certs.caFile, "utf8");
  return new Promise((resolve, reject) => {
    const request = https.get(
      `${base}${urlPath}`,
      {
        ...(ca === undefined ? {} : { ca }),
        ...(options.cert === undefined ? {} : { cert: options.cert, key: options.key }),
        headers: options.token === undefined ? {} : { authorization: `Bearer ${options.token}` },
        timeout: 10_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            challenge: response.headers["www-authenticate"],
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    request.on("error", reject);
  });
}

describe("admin API over HTTPS with authentication", () => {
  test("health and metrics are public; the admin APIs need a credential", async () => {
    expect((await get("/healthz")).status).toBe(200);
    expect((await get("/metrics")).status).toBe(200);
    for (const urlPath of ["/admin/v1/brokers", "/admin/v2/clusters", "/console", "/nowhere"]) {
      const refused = await get(urlPath);
      expect(refused.status, urlPath).toBe(401);
      expect(refused.challenge).toBe('Bearer realm="nereus-admin"');
    }
  });

  test("a wrong token is refused; each configured token is accepted", async () => {
    const wrong = await get("/admin/v1/brokers", { token: "not-the-token-at-all-0000" });
    expect(wrong.status).toBe(401);
    expect(wrong.challenge).toBe('Bearer realm="nereus-admin", error="invalid_token"');
    expect(wrong.body).not.toContain(TOKEN);
    expect((await get("/admin/v1/brokers", { token: `${TOKEN}x` })).status).toBe(401);
    for (const token of [TOKEN, SECOND]) {
      const admitted = await get("/admin/v1/brokers", { token });
      expect(admitted.status).toBe(200);
      expect(JSON.parse(admitted.body)).toMatchObject({
        brokers: [{ nodeId: 0, listeners: [{ name: "kafka" }, { name: "admin", protocol: "HTTPS" }] }],
      });
    }
  });

  test("a client certificate signed by the CA authenticates; one of another CA does not", async () => {
    const own = {
      cert: fs.readFileSync(certs.clientCertFile, "utf8"),
      key: fs.readFileSync(certs.clientKeyFile, "utf8"),
    };
    expect((await get("/admin/v1/brokers", own)).status).toBe(200);
    const stranger = {
      cert: fs.readFileSync(certs.strangerCertFile, "utf8"),
      key: fs.readFileSync(certs.strangerKeyFile, "utf8"),
    };
    expect((await get("/admin/v1/brokers", stranger)).status).toBe(401);
  });

  test("a client that does not trust the broker's CA cannot connect", async () => {
    await expect(get("/healthz", { ca: undefined })).rejects.toThrow(/self-signed|unable to verify|certificate/i);
  });

  test("nereus admin reads over https with --token-file and --ca-file, and says when the token is missing", async () => {
    const dir = tempDir("admin-cli");
    const tokenFile = path.join(dir, "token");
    fs.writeFileSync(tokenFile, `${TOKEN}\n`);
    const run = async (argv: string[]): Promise<{ code: number; out: string; err: string }> => {
      let out = "";
      let err = "";
      const code = await runAdminCommand(argv, {
        stdout: (text) => (out += text),
        stderr: (text) => (err += text),
      });
      return { code, out, err };
    };
    const ok = await run([
      "brokers",
      "--json",
      "--admin-url",
      base,
      "--token-file",
      tokenFile,
      "--ca-file",
      certs.caFile,
    ]);
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ brokers: [{ nodeId: 0 }] });
    const anonymous = await run(["brokers", "--admin-url", base, "--ca-file", certs.caFile]);
    expect(anonymous.code).toBe(1);
    expect(anonymous.err).toMatch(/401 the broker asks for a token/);
    const untrusted = await run(["brokers", "--admin-url", base, "--token-file", tokenFile]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.err).toMatch(/cannot reach the broker's admin API/);
  });

  test("500 garbage and truncated ClientHellos at the HTTPS port are each closed; the API keeps answering", async () => {
    const plaintext = new TextEncoder().encode(
      `GET /admin/v1/brokers HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${TOKEN}\r\n\r\n`,
    );
    const outcomes = await sendHostileHellos(broker.broker.adminPort!, 500, plaintext);
    expect(outcomes.filter((outcome) => !outcome.closedByServer)).toEqual([]);
    expect((await get("/admin/v1/brokers", { token: TOKEN })).status).toBe(200);
  });

  test("the tokens never appear in the broker's log", () => {
    const log = broker.logs.join("");
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(SECOND);
  });
});
