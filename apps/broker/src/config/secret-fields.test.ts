import { describe, expect, test } from "vitest";
import { redactSecrets, redactSource } from "./secret-fields.js";

describe("secret fields", () => {
  test("every secret of the configuration is redacted at any depth; other fields stay", () => {
    const config = {
      storage: {
        metadata: { kind: "etcd", username: "nereus", password: "etcd-pw", tls: { caFile: "/etc/ca.pem" } },
        objects: { accessKeyId: "AKIA", secretAccessKey: "s3-secret" },
        bookkeeper: { password: "bk-pw" },
      },
      admin: { auth: { tokenSecret: "admin-token", tokens: [{ name: "ops", secret: "ops-token" }] } },
      kafka: { sasl: { plainUsers: [{ name: "alice", password: "alice-pw" }] } },
      listeners: [{ tls: { keyFile: "/etc/key.pem", keyPassphrase: "key-pass" } }],
    };
    const shown = JSON.stringify(redactSecrets(config));
    for (const secret of ["etcd-pw", "s3-secret", "bk-pw", "admin-token", "ops-token", "alice-pw", "key-pass"])
      expect(shown).not.toContain(secret);
    for (const visible of ["nereus", "/etc/ca.pem", "AKIA", "alice", "ops", "/etc/key.pem"])
      expect(shown).toContain(visible);
  });

  test("a source that sets a secret loses its value", () => {
    expect(redactSource("--etcd-password=hunter2")).toBe("--etcd-password=<redacted>");
    expect(redactSource("NEREUS_ETCD_PASSWORD=hunter2")).toBe("NEREUS_ETCD_PASSWORD=<redacted>");
    expect(redactSource("NEREUS_S3_SECRET_ACCESS_KEY=abc")).toBe("NEREUS_S3_SECRET_ACCESS_KEY=<redacted>");
    expect(redactSource("--etcd-username=nereus")).toBe("--etcd-username=nereus");
    expect(redactSource("broker.json")).toBe("broker.json");
  });
});
