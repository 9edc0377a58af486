// Runs a client command (kcat, python3) with input and a deadline; collects stdout as bytes and stderr as text.
import { spawn } from "node:child_process";

export interface CommandResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export function runCommand(
  command: string,
  args: readonly string[],
  options: { input?: Uint8Array | string; timeoutMs?: number; env?: Readonly<Record<string, string>> } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...options.env } });
    const stdout: Buffer[] = [];
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `${command} ${args.join(" ")} timed out after ${String(options.timeoutMs ?? 120_000)} ms; stderr: ${stderr.slice(-2_000)}`,
        ),
      );
    }, options.timeoutMs ?? 120_000);
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(stdout), stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}
