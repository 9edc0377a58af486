// A handle on running services, in the process that started them or in any other one (loaded from the state
// file): endpoints, bookie faults (kill -9 and restart by PID), and a stop that verifies nothing is left.
import fs from "node:fs";
import type {
  BookKeeperDescription,
  EtcdDescription,
  S3Description,
  ServicesDescription,
  ZooKeeperDescription,
} from "./description.js";
import { ServiceStartError } from "./errors.js";
import {
  commandLineContains,
  isProcessAlive,
  liveGroupMembers,
  stopProcess,
  type ProcessRecord,
} from "./managed-process.js";
import { respawnBookie } from "./bookkeeper.js";
import { isPortOpen } from "./ports.js";
import { readStateFile, updateStateFile } from "./state-file.js";
import { sleep } from "./wait.js";

/** Options for {@link RunningServices.stop}. */
export interface StopServicesOptions {
  /** Keep the run directory (data and logs) instead of deleting it (also `NEREUS_SERVICES_KEEP=1`). */
  readonly keepRunDir?: boolean;
  /** Time allowed after SIGTERM before SIGKILL, per process (default 10 s). */
  readonly graceMs?: number;
}

/** What a stop left behind (empty lists on success). */
export interface StopReport {
  readonly stopped: number;
  readonly alivePids: readonly number[];
  readonly openPorts: readonly number[];
}

function bookieProcessName(index: number): string {
  return `bookie-${index}`;
}

/**
 * Running services. JSON-serializable: `JSON.stringify(services)` gives the {@link ServicesDescription}.
 * When bound to a state file, every operation re-reads it first and records new PIDs in it, so several
 * processes (a vitest main process and its workers) can share one set of services.
 */
export class RunningServices {
  #description: ServicesDescription;
  readonly #stateFile: string | undefined;
  readonly #guard: boolean;

  /** @internal Use {@link startServices} or {@link loadServices}. */
  constructor(description: ServicesDescription, options: { stateFile?: string | undefined; guard?: boolean } = {}) {
    this.#description = description;
    this.#stateFile = options.stateFile;
    this.#guard = options.guard ?? false;
  }

  /** Loads a handle from a state file written by `nereus-services start` or {@link startServices}. */
  static fromStateFile(file: string): RunningServices {
    return new RunningServices(readStateFile(file), { stateFile: file });
  }

  /** The current description (re-read from the state file when bound to one). */
  get description(): ServicesDescription {
    if (this.#stateFile !== undefined && fs.existsSync(this.#stateFile))
      this.#description = readStateFile(this.#stateFile);
    return this.#description;
  }

  /** The state file this handle is bound to, if any. */
  get stateFile(): string | undefined {
    return this.#stateFile;
  }

  /** etcd endpoint. @throws when etcd was not started. */
  get etcd(): EtcdDescription {
    return this.#require("etcd", this.description.etcd);
  }

  /** S3 endpoint, bucket and credentials. @throws when s3 was not started. */
  get s3(): S3Description {
    return this.#require("s3", this.description.s3);
  }

  /** ZooKeeper connect string. @throws when ZooKeeper was not started. */
  get zookeeper(): ZooKeeperDescription {
    return this.#require("zookeeper", this.description.zookeeper);
  }

  /** Bookies and their ledgers root. @throws when BookKeeper was not started. */
  get bookkeeper(): BookKeeperDescription {
    return this.#require("bookkeeper", this.description.bookkeeper);
  }

  #require<T>(name: string, value: T | undefined): T {
    if (value === undefined) {
      throw new ServiceStartError(name, `${name} is not part of run ${this.#description.runId} (started without it?)`);
    }
    return value;
  }

  /** The JSON description. */
  toJSON(): ServicesDescription {
    return this.description;
  }

  #bookieRecord(index: number): { record: ProcessRecord; description: ServicesDescription } {
    const description = this.description;
    const bookkeeper = this.#require("bookkeeper", description.bookkeeper);
    if (bookkeeper.bookies[index] === undefined) {
      throw new ServiceStartError("bookkeeper", `no bookie ${index}: the run has ${bookkeeper.bookies.length} bookies`);
    }
    const record = description.processes.find((p) => p.name === bookieProcessName(index));
    if (record === undefined) throw new ServiceStartError("bookkeeper", `bookie ${index} has no process record`);
    return { record, description };
  }

  /** True while bookie `index`'s JVM is alive. */
  isBookieRunning(index: number): boolean {
    return isProcessAlive(this.#bookieRecord(index).record.pid);
  }

  /**
   * Kills bookie `index` with SIGKILL (a crash: no clean shutdown, its ZooKeeper registration stays until the
   * session times out, see `bookkeeper.zkTimeoutMs`). Resolves when the process is gone.
   */
  async killBookie(index: number): Promise<void> {
    const { record } = this.#bookieRecord(index);
    if (!(await stopProcess(record, { kill: true }))) {
      throw new ServiceStartError("bookkeeper", `bookie ${index} (pid ${record.pid}) survived SIGKILL`);
    }
  }

  /**
   * Starts bookie `index` again with the same port, directories and config (stopping it first if it is still
   * running), waits until it is registered by a new session, and records the new PID.
   */
  async restartBookie(index: number, options: { readyTimeoutMs?: number } = {}): Promise<number> {
    const { record, description } = this.#bookieRecord(index);
    if (!(await stopProcess(record))) {
      throw new ServiceStartError(
        "bookkeeper",
        `bookie ${index} (pid ${record.pid}) could not be stopped before restart`,
      );
    }
    const bookkeeper = this.#require("bookkeeper", description.bookkeeper);
    const bookie = bookkeeper.bookies[index];
    const zookeeper = this.#require("zookeeper", description.zookeeper);
    if (bookie === undefined) throw new ServiceStartError("bookkeeper", `no bookie ${index}`);
    const fresh = await respawnBookie(zookeeper, bookie, record, {
      guard: this.#guard,
      readyTimeoutMs: options.readyTimeoutMs,
    });
    const apply = (current: ServicesDescription): ServicesDescription => {
      const currentBk = current.bookkeeper;
      if (currentBk === undefined) return current;
      return {
        ...current,
        processes: current.processes.map((p) => (p.name === fresh.name ? fresh : p)),
        bookkeeper: {
          ...currentBk,
          bookies: currentBk.bookies.map((b) => (b.index === index ? { ...b, pid: fresh.pid } : b)),
        },
      };
    };
    this.#description =
      this.#stateFile === undefined ? apply(description) : await updateStateFile(this.#stateFile, apply);
    return fresh.pid;
  }

  /**
   * Stops every process of the run by PID (bookies first, then the rest, SIGTERM then SIGKILL), then checks
   * that no process of the run is alive and none of its ports accepts connections. Deletes the run directory
   * unless kept. Throws a {@link ServiceStartError} naming what is left, if anything.
   */
  async stop(options: StopServicesOptions = {}): Promise<StopReport> {
    const description = this.description;
    const bookies = description.processes.filter((p) => p.name.startsWith("bookie-"));
    const others = description.processes.filter((p) => !p.name.startsWith("bookie-"));
    const graceMs = options.graceMs ?? 10_000;
    await Promise.all(bookies.map((p) => stopProcess(p, { graceMs })));
    await Promise.all(others.map((p) => stopProcess(p, { graceMs })));
    const report = await verifyGone(description.processes);
    const watchdog = description.watchdogPid;
    if (watchdog !== undefined && commandLineContains(watchdog, description.runDir)) {
      try {
        process.kill(watchdog, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
    const keep = options.keepRunDir === true || process.env.NEREUS_SERVICES_KEEP === "1";
    if (report.alivePids.length > 0 || report.openPorts.length > 0) {
      throw new ServiceStartError(
        "harness",
        `after stop, still alive: pids [${report.alivePids.join(", ")}], open ports [${report.openPorts.join(", ")}] (run dir ${description.runDir})`,
      );
    }
    if (!keep) fs.rmSync(description.runDir, { recursive: true, force: true });
    return report;
  }
}

/** Checks (with a short bounded wait for sockets to close) that no process or port of `records` remains. */
async function verifyGone(records: readonly ProcessRecord[]): Promise<StopReport> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const alivePids = records.flatMap((r) =>
      liveGroupMembers(r.pid).filter((pid) => commandLineContains(pid, r.marker)),
    );
    const ports = records.flatMap((r) => r.ports);
    const open = await Promise.all(ports.map(async (port) => ((await isPortOpen(port, 500)) ? port : undefined)));
    const openPorts = open.filter((p): p is number => p !== undefined);
    if ((alivePids.length === 0 && openPorts.length === 0) || Date.now() > deadline) {
      return { stopped: records.length, alivePids, openPorts };
    }
    await sleep(100);
  }
}
