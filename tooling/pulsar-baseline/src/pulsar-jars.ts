// The Apache Pulsar jars of the service harness's Maven artifact sets: "pulsar" (pulsar-broker 4.2.4 and its
// runtime, the standalone's classpath) and "pulsar-client" (pulsar-client-original + pulsar-client-admin-original,
// the driver's classpath). Fetched with mvn only when missing; afterwards only the cached directory is read.
import fs from "node:fs";
import path from "node:path";
import { type ArtifactSetName, ensureArtifactSet } from "@nereus/test-services";
import { PulsarBaselineError, reasonOf } from "./errors.js";

/** A cached artifact set. */
export interface PulsarJars {
  /** Directory of every jar. */
  readonly dir: string;
  /** `<dir>/*`. */
  readonly classpath: string;
  /** The Pulsar version, read from the name of the set's `marker` jar. */
  readonly version: string;
}

const cached = new Map<ArtifactSetName, Promise<PulsarJars>>();

/** The broker jars (artifact set "pulsar"). @throws PulsarBaselineError("maven") when they cannot be fetched. */
export function pulsarBrokerJars(log: (line: string) => void = () => {}): Promise<PulsarJars> {
  return jarsOf("pulsar", "pulsar-broker", log);
}

/** The Java client jars (artifact set "pulsar-client"). @throws PulsarBaselineError("maven"). */
export function pulsarClientJars(log: (line: string) => void = () => {}): Promise<PulsarJars> {
  return jarsOf("pulsar-client", "pulsar-client-original", log);
}

function jarsOf(set: ArtifactSetName, marker: string, log: (line: string) => void): Promise<PulsarJars> {
  let jars = cached.get(set);
  if (jars === undefined) {
    jars = resolve(set, marker, log).catch((error: unknown) => {
      cached.delete(set);
      throw error;
    });
    cached.set(set, jars);
  }
  return jars;
}

async function resolve(set: ArtifactSetName, marker: string, log: (line: string) => void): Promise<PulsarJars> {
  let dir: string;
  try {
    dir = await ensureArtifactSet(set, {
      env: process.env,
      autoInstall: process.env.NEREUS_SERVICES_NO_INSTALL !== "1",
      log,
    });
  } catch (error) {
    throw new PulsarBaselineError("maven", `cannot fetch the artifact set "${set}": ${reasonOf(error)}`, {
      cause: error,
    });
  }
  const pattern = new RegExp(`^${marker}-([0-9][^/]*)\\.jar$`);
  const jar = fs.readdirSync(dir).find((name) => pattern.test(name));
  const version = jar === undefined ? undefined : pattern.exec(jar)?.[1];
  if (version === undefined) throw new PulsarBaselineError("maven", `no ${marker} jar in ${dir}`);
  return { dir, classpath: path.join(dir, "*"), version };
}
