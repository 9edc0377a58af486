// The ledger master key BookKeeper derives from a ledger password: SHA-1 over the UTF-8 bytes of "ledger"
// followed by the password bytes, 20 bytes, whatever the digest type. Bookies persist the first key they see for
// a ledger and refuse adds and fencing reads with another (EUA). Pure; returns fresh arrays.
import { createHash } from "node:crypto";

/** Master key of an empty password: SHA-1("ledger"), what Pulsar uses. */
export const EMPTY_PASSWORD_MASTER_KEY_HEX = "850bf1071c5e3d8c24235676f8816ae0cbe2f14f";

/** Password bytes: strings are UTF-8 (as the Java tools' `getBytes(UTF_8)`), byte arrays are used as given. */
export function passwordBytes(password: string | Uint8Array): Uint8Array {
  return typeof password === "string" ? new TextEncoder().encode(password) : password;
}

/** SHA-1 over `pad` (UTF-8) followed by `password`: the shared shape of the master key and the HMAC key. */
export function padDigest(pad: string, password: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha1").update(pad, "utf8").update(password).digest());
}

/** The 20-byte master key of a ledger password (`DigestManager.generateMasterKey`). */
export function deriveMasterKey(password: string | Uint8Array): Uint8Array {
  return padDigest("ledger", passwordBytes(password));
}
