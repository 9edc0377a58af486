// Child processes of the baseline tooling (Kafka JVMs, the Nereus broker, driver runs): output goes to a log file
// that outlives the process, stopping is by PID (SIGTERM, then SIGKILL after a bound), and a process-exit hook
// SIGKILLs whatever is still running by its PID so a crashed test never leaves a broker behind.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

const running = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const pid of running) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  });
}

/** The exit of a child: its code or the signal that ended it. */
export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running child process whose stdout and stderr are appended to `logFile`. */
export class LoggedProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly logFile: string;
  readonly exited: Promise<ExitStatus>;
  private status: ExitStatus | undefined;
  private readonly stdoutListeners: ((line: string) => void)[] = [];

  private constructor(child: ChildProcess, logFile: string) {
    if (child.pid === undefined) throw new Error("spawn returned no pid");
    this.child = child;
    this.pid = child.pid;
    this.logFile = logFile;
    running.add(this.pid);
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        running.delete(this.pid);
        this.status = { code, signal };
        resolve(this.status);
      });
    });
    const log = fs.createWriteStream(logFile, { flags: "a" });
    let pending = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      log.write(chunk);
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = (lines.pop() ?? "").slice(-1_000_000);
      for (const line of lines) for (const listener of this.stdoutListeners) listener(line);
    });
    child.stderr?.on("data", (chunk: Buffer) => log.write(chunk));
    child.once("close", () => log.end());
  }

  /**
   * Spawns `command` with output appended to `logFile`.
   * @throws Error when the command cannot be started (ENOENT and the like, reported by the caller).
   */
  static async spawn(
    command: string,
    args: readonly string[],
    options: { cwd: string; env?: NodeJS.ProcessEnv; logFile: string },
  ): Promise<LoggedProcess> {
    installExitHook();
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", reject);
    });
    return new LoggedProcess(child, options.logFile);
  }

  /** Calls `listener` with every later stdout line. */
  onStdoutLine(listener: (line: string) => void): void {
    this.stdoutListeners.push(listener);
  }

  /** The exit status once the process has exited. */
  get exitStatus(): ExitStatus | undefined {
    return this.status;
  }

  /** Sends `signal` by PID and waits up to `timeoutMs` for the exit, then SIGKILLs it. */
  async stop(signal: NodeJS.Signals = "SIGTERM", timeoutMs = 30_000): Promise<ExitStatus> {
    if (this.status !== undefined) return this.status;
    try {
      process.kill(this.pid, signal);
    } catch {
      // Exited in between.
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const first = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (first !== "timeout") return first;
    try {
      process.kill(this.pid, "SIGKILL");
    } catch {
      // Exited in between.
    }
    return this.exited;
  }
}

/** The last `lines` lines of a log file ("" when it cannot be read). */
export function logTail(file: string, lines = 30): string {
  try {
    return fs
      .readFileSync(file, "utf8")
      .split("\n")
      .slice(-lines - 1)
      .join("\n");
  } catch {
    return "";
  }
}

/** The last line of `text` matching `pattern`, else its last non-empty line. */
export function lastMeaningfulLine(text: string, pattern = /\b(ERROR|FATAL|Exception|Error)\b/): string | undefined {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  for (let i = lines.length - 1; i >= 0; i--) if (pattern.test(lines[i] ?? "")) return lines[i];
  return lines.at(-1);
}

/** `count` distinct ports that are free on 127.0.0.1 right now (all held open until every one is known). */
export async function freePorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => resolve());
      });
      servers.push(server);
    }
    return servers.map((server) => {
      const address = server.address();
      if (typeof address !== "object" || address === null) throw new Error("no port");
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

/** Runs a command to completion with output appended to `logFile`; resolves with its exit status. */
export async function runLogged(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; logFile: string; timeoutMs: number },
): Promise<ExitStatus & { timedOut: boolean }> {
  const proc = await LoggedProcess.spawn(command, args, options);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void proc.stop("SIGKILL");
  }, options.timeoutMs);
  const status = await proc.exited;
  clearTimeout(timer);
  return { ...status, timedOut };
}
