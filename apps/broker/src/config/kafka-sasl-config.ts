// `kafka.sasl`: what the SASL_PLAINTEXT and SASL_SSL listeners accept, with Kafka's meanings. `mechanisms` is
// Kafka's sasl.enabled.mechanisms; `plainUsers` are the PLAIN users (what Kafka's PlainLoginModule reads from
// `user_<name>="<password>"` JAAS entries); `scramUsers` are SCRAM credentials created at start-up where the user has
// none of that mechanism yet (so the first administrator can log in; later changes go through
// AlterUserScramCredentials, e.g. kafka-configs --alter --add-config 'SCRAM-SHA-512=[password=...]');
// `connectionsMaxReauthMs` is Kafka's connections.max.reauth.ms (0 = sessions never expire). Passwords are secret
// fields: `--print-config` and logs redact them.
import type { InitialScramUser, KafkaSaslOptions } from "@nereus/kafka";
import { z } from "zod";

const name = z.string().min(1).max(1024);
const password = z.string().min(1).max(1024);

/** `kafka.sasl`. */
export const KafkaSaslConfigSchema = z
  .strictObject({
    mechanisms: z
      .array(
        z.enum(["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"], { error: "must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512" }),
      )
      .min(1)
      .default(["SCRAM-SHA-512", "SCRAM-SHA-256"]),
    plainUsers: z.array(z.strictObject({ name, password })).default([]),
    scramUsers: z
      .array(
        z.strictObject({
          name,
          password,
          mechanism: z.enum(["SCRAM-SHA-256", "SCRAM-SHA-512"], { error: "must be SCRAM-SHA-256 or SCRAM-SHA-512" }),
          /** Kafka accepts 4096 to 16384. */
          iterations: z.int().min(4_096).max(16_384).default(8_192),
        }),
      )
      .default([]),
    connectionsMaxReauthMs: z.int().min(0).max(0x7fff_ffff).default(0),
  })
  .superRefine((sasl, context) => {
    if (new Set(sasl.mechanisms).size !== sasl.mechanisms.length) {
      context.addIssue({ code: "custom", message: "mechanisms repeat", path: ["mechanisms"] });
    }
    const names = new Set<string>();
    sasl.plainUsers.forEach((user, index) => {
      if (names.has(user.name)) {
        context.addIssue({
          code: "custom",
          message: `PLAIN user ${user.name} is listed twice`,
          path: ["plainUsers", index],
        });
      }
      names.add(user.name);
    });
  });

/** The validated `kafka.sasl`. */
type KafkaSaslConfig = z.output<typeof KafkaSaslConfigSchema>;

/** The broker's SASL options of `sasl`. */
export function kafkaSaslOptions(sasl: KafkaSaslConfig): KafkaSaslOptions {
  return {
    mechanisms: sasl.mechanisms,
    plainUsers: new Map(sasl.plainUsers.map((user) => [user.name, user.password])),
    reauthenticationMs: sasl.connectionsMaxReauthMs,
  };
}

/** The SCRAM users to create at start-up. */
export function initialScramUsers(sasl: KafkaSaslConfig): InitialScramUser[] {
  return sasl.scramUsers.map((user) => ({ ...user }));
}
