// Real Chromium for the console tests: Debian's `chromium` package (installed with apt-get when missing — as root;
// the test fails with the reason when it cannot be), started headless with the DevTools protocol over a pipe
// (--remote-debugging-pipe: fd 3 carries commands, fd 4 answers and events, each message JSON ended by NUL). No
// browser download and no port: one page, driven by a few protocol commands.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { runCommand } from "./run-command.js";
import { tempDir } from "./temp-dirs.js";

const CHROMIUM = "/usr/bin/chromium";
const INSTALL_TIMEOUT_MS = 15 * 60_000;

async function aptGet(args: readonly string[]): Promise<{ ok: boolean; output: string }> {
  const result = await runCommand("apt-get", args, {
    timeoutMs: INSTALL_TIMEOUT_MS,
    env: { DEBIAN_FRONTEND: "noninteractive" },
  });
  return { ok: result.code === 0, output: `${result.stdout.toString("utf8")}${result.stderr}`.slice(-2_000) };
}

/**
 * The path of Debian's chromium, installing the package (and the fonts it recommends) when missing. Throws with the
 * reason when it is missing and cannot be installed (not root, no package source).
 */
export async function ensureChromium(): Promise<string> {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() !== 0)
    throw new Error(
      `${CHROMIUM} is missing and this test is not root: install Debian's chromium (apt-get install chromium)`,
    );
  const install = ["install", "-y", "--no-install-recommends", "chromium", "fonts-liberation"];
  let attempt = await aptGet(install);
  if (!attempt.ok) {
    const update = await aptGet(["update"]);
    if (!update.ok) throw new Error(`apt-get update failed, so chromium cannot be installed:\n${update.output}`);
    attempt = await aptGet(install);
  }
  if (!attempt.ok || !existsSync(CHROMIUM))
    throw new Error(`apt-get install chromium failed, so the console cannot be tested:\n${attempt.output}`);
  return CHROMIUM;
}

interface ProtocolMessage {
  readonly id?: number;
  readonly sessionId?: string;
  readonly method?: string;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly message: string };
}

/** A headless Chromium with one page, driven over the DevTools pipe. */
export class HeadlessChromium {
  readonly #child: ChildProcess;
  readonly #commands: Writable;
  readonly #pending = new Map<
    number,
    { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }
  >();
  readonly #stderr: string[] = [];
  #nextId = 1;
  #sessionId: string | undefined;
  #exited: Error | undefined;

  private constructor(child: ChildProcess) {
    this.#child = child;
    this.#commands = child.stdio[3] as Writable;
    const answers = child.stdio[4] as Readable;
    let buffered = "";
    answers.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf("\0"); end >= 0; end = buffered.indexOf("\0")) {
        this.#receive(JSON.parse(buffered.slice(0, end)) as ProtocolMessage);
        buffered = buffered.slice(end + 1);
      }
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => this.#stderr.push(chunk));
    child.on("exit", (code, signal) => {
      this.#exited = new Error(`chromium exited (${String(code ?? signal)}): ${this.#stderr.join("").slice(-2_000)}`);
      for (const waiter of this.#pending.values()) waiter.reject(this.#exited);
      this.#pending.clear();
    });
  }

  /** Starts chromium (headless, its own profile directory) and opens a page of `width` × `height` CSS pixels. */
  static async launch(executable: string, width = 1280, height = 900): Promise<HeadlessChromium> {
    const child = spawn(
      executable,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--no-proxy-server",
        "--hide-scrollbars",
        "--remote-debugging-pipe",
        `--user-data-dir=${tempDir("chromium-profile")}`,
        `--window-size=${String(width)},${String(height)}`,
        "about:blank",
      ],
      { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
    );
    const browser = new HeadlessChromium(child);
    const { targetId } = (await browser.send("Target.createTarget", { url: "about:blank" })) as { targetId: string };
    const { sessionId } = (await browser.send("Target.attachToTarget", { targetId, flatten: true })) as {
      sessionId: string;
    };
    browser.#sessionId = sessionId;
    await browser.send("Page.enable");
    await browser.send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
    return browser;
  }

  /** Sends a protocol command (to the page once attached) and resolves with its result. */
  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    if (this.#exited !== undefined) return Promise.reject(this.#exited);
    const id = this.#nextId++;
    const message = { id, method, params, ...(this.#sessionId === undefined ? {} : { sessionId: this.#sessionId }) };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#commands.write(`${JSON.stringify(message)}\0`);
    });
  }

  /** Loads `url` in the page. */
  async navigate(url: string): Promise<void> {
    const result = (await this.send("Page.navigate", { url })) as { errorText?: string };
    if (result.errorText !== undefined) throw new Error(`chromium could not load ${url}: ${result.errorText}`);
  }

  /** The value of `expression` evaluated in the page (awaited when it is a promise). */
  async evaluate<T>(expression: string): Promise<T> {
    const result = (await this.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true })) as {
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (result.exceptionDetails !== undefined)
      throw new Error(`page error: ${result.exceptionDetails.exception?.description ?? result.exceptionDetails.text}`);
    return result.result.value as T;
  }

  /**
   * Evaluates `expression` until it is truthy (every 100 ms, up to `timeoutMs`); an exception — say, the document
   * still loading — counts as not yet.
   */
  async waitUntil(what: string, expression: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let lastError = "";
    for (;;) {
      try {
        if (await this.evaluate<boolean>(`Boolean(${expression})`)) return;
      } catch (error) {
        if (this.#exited !== undefined) throw this.#exited;
        lastError = ` (last: ${error instanceof Error ? error.message : String(error)})`;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting in chromium for ${what}${lastError}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** A PNG screenshot of the page's viewport. */
  async screenshot(): Promise<Buffer> {
    const { data } = (await this.send("Page.captureScreenshot", { format: "png" })) as { data: string };
    return Buffer.from(data, "base64");
  }

  /** Closes the browser (and waits for the process to end). */
  async close(): Promise<void> {
    if (this.#exited !== undefined) return;
    const exited = new Promise<void>((resolve) => this.#child.once("exit", () => resolve()));
    this.#sessionId = undefined;
    await Promise.race([this.send("Browser.close").catch(() => undefined), exited]);
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }

  #receive(message: ProtocolMessage): void {
    if (message.id === undefined) return;
    const waiter = this.#pending.get(message.id);
    if (waiter === undefined) return;
    this.#pending.delete(message.id);
    if (message.error !== undefined) waiter.reject(new Error(`DevTools: ${message.error.message}`));
    else waiter.resolve(message.result ?? {});
  }
}
