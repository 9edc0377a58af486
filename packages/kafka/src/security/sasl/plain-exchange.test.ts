import { describe, expect, test } from "vitest";
import { PlainExchange } from "./plain-exchange.js";

const users = new Map([
  ["alice", "alice-secret"],
  ["bob", "b"],
]);
const token = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("PlainExchange", () => {
  test("a configured user with its password completes, with or without its own authorization id", async () => {
    expect(await new PlainExchange(users).evaluate(token("\0alice\0alice-secret"))).toMatchObject({
      kind: "complete",
      userName: "alice",
    });
    expect(await new PlainExchange(users).evaluate(token("alice\0alice\0alice-secret"))).toMatchObject({
      kind: "complete",
      userName: "alice",
    });
  });

  test("a wrong password and an unknown user get the same message", async () => {
    for (const attempt of ["\0alice\0alice-secreT", "\0alice\0a", "\0carol\0alice-secret", "\0bob\0bb"]) {
      expect(await new PlainExchange(users).evaluate(token(attempt))).toMatchObject({
        kind: "failed",
        clientMessage: "Authentication failed: Invalid username or password",
      });
    }
  });

  test("Kafka's messages for malformed tokens, empty fields and a foreign authorization id; one token only", async () => {
    const cases: Array<[string, string]> = [
      ["alice\0alice-secret", "Invalid SASL/PLAIN response: expected 3 tokens, got 2"],
      ["\0alice\0alice-secret\0", "Invalid SASL/PLAIN response: expected 3 tokens, got 4"],
      ["\0\0alice-secret", "Authentication failed: username not specified"],
      ["\0alice\0", "Authentication failed: password not specified"],
      [
        "bob\0alice\0alice-secret",
        "Authentication failed: Client requested an authorization id that is different from username",
      ],
    ];
    for (const [text, message] of cases) {
      expect(await new PlainExchange(users).evaluate(token(text))).toMatchObject({
        kind: "failed",
        clientMessage: message,
      });
    }
    const exchange = new PlainExchange(users);
    await exchange.evaluate(token("\0alice\0alice-secret"));
    expect((await exchange.evaluate(token("\0alice\0alice-secret"))).kind).toBe("failed");
    expect((await new PlainExchange(users).evaluate(new Uint8Array([0, 0xff, 0, 0x61]))).kind).toBe("failed");
  });
});
