import { describe, expect, test } from "vitest";
import { ConfigError } from "./config-error.js";
import { loadBrokerConfig } from "./load-broker-config.js";

function load(argv: string[] = [], env: Record<string, string> = {}): ReturnType<typeof loadBrokerConfig> {
  return loadBrokerConfig({ argv, env, cwd: "/srv/nereus" });
}

function errorOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

const HTTPS = ["--etcd-endpoints", "https://etcd-1:2379,https://etcd-2:2379"];

describe("storage.metadata (etcd) security", () => {
  test("flags and variables set TLS files, the user and the password", () => {
    const { config } = load(
      [...HTTPS, "--etcd-ca-file", "/etc/etcd/ca.pem", "--etcd-cert-file", "/etc/etcd/client.pem"],
      { NEREUS_ETCD_KEY_FILE: "/etc/etcd/client-key.pem", NEREUS_ETCD_USERNAME: "nereus", NEREUS_ETCD_PASSWORD: "pw" },
    );
    expect(config.storage.metadata).toMatchObject({
      kind: "etcd",
      endpoints: ["https://etcd-1:2379", "https://etcd-2:2379"],
      tls: { caFile: "/etc/etcd/ca.pem", certFile: "/etc/etcd/client.pem", keyFile: "/etc/etcd/client-key.pem" },
      username: "nereus",
      password: "pw",
    });
  });

  test("TLS needs https endpoints; certificate and key, user and password go together", () => {
    expect(errorOf(() => load(["--etcd-endpoints", "http://etcd:2379", "--etcd-ca-file", "/ca.pem"]))).toContain(
      "tls needs https:// endpoints",
    );
    expect(errorOf(() => load([...HTTPS, "--etcd-ca-file", "/ca.pem", "--etcd-cert-file", "/c.pem"]))).toContain(
      "certFile and keyFile go together",
    );
    const noUser = errorOf(() => load([...HTTPS, "--etcd-password", "hunter2"]));
    expect(noUser).toContain("username and password go together");
    expect(noUser).not.toContain("hunter2");
  });
});
