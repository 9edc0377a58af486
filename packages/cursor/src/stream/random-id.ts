// Fresh 128-bit identifiers (owner sessions, protection and trim attempts) from the CSPRNG.
import { randomBytes } from "node:crypto";

/** 32 lowercase hex digits: 128 random bits. */
export function newRandomId128(): string {
  return randomBytes(16).toString("hex");
}
