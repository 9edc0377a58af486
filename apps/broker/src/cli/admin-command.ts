// `nereus admin …`: parses the command line, asks the broker's admin API and prints tables (or the JSON with
// --json). Returns the exit code: 0 done, 1 the broker could not be reached or answered an error (one line on
// stderr), 2 bad usage (one line pointing at --help).
import type { BrokerView, GroupDetail, GroupList, TopicDetail, TopicList } from "../admin/admin-views.js";
import { readFileSync } from "node:fs";
import { type AdminCredentials, AdminRequestError, getAdminJson } from "./admin-client.js";
import {
  type AdminCredentialSources,
  type AdminInvocation,
  AdminUsageError,
  parseAdminCommandLine,
} from "./admin-command-line.js";
import { renderBrokers, renderGroup, renderGroups, renderTopic, renderTopics } from "./admin-render.js";
import { adminUsage } from "./admin-usage.js";

/** Where `nereus admin` writes. */
export interface AdminOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

type RunInvocation = Extract<AdminInvocation, { kind: "run" }>;

const API = "admin/v1";

/** The text to print for `invocation`, or undefined when the named topic or group does not exist. */
async function answer(invocation: RunInvocation, credentials: AdminCredentials): Promise<string | undefined> {
  const { adminUrl, timeoutMs, describe, json } = invocation;
  const get = <T>(path: string, notFoundIsUndefined = false): Promise<T | undefined> =>
    getAdminJson<T>(adminUrl, `${adminUrl.pathname.replace(/\/?$/, "/")}${path}`, timeoutMs, {
      notFoundIsUndefined,
      credentials,
    });
  const print = <T>(body: T | undefined, render: (value: T) => string): string | undefined =>
    body === undefined ? undefined : json ? JSON.stringify(body, null, 2) : render(body);
  switch (invocation.subcommand) {
    case "brokers":
      return print(await get<{ brokers: BrokerView[] }>(`${API}/brokers`), (body) => renderBrokers(body.brokers));
    case "topics":
      return describe === undefined
        ? print(await get<TopicList>(`${API}/topics?limit=1000`), renderTopics)
        : print(await get<TopicDetail>(`${API}/topics/${encodeURIComponent(describe)}`, true), renderTopic);
    case "groups":
      return describe === undefined
        ? print(await get<GroupList>(`${API}/groups`), renderGroups)
        : print(await get<GroupDetail>(`${API}/groups/${encodeURIComponent(describe)}`, true), renderGroup);
  }
}

/** Reads the token and CA files the command line names. Throws AdminUsageError naming a file it cannot read. */
function loadCredentials(sources: AdminCredentialSources): AdminCredentials {
  const read = (flag: string, path: string): string => {
    try {
      return readFileSync(path, "utf8");
    } catch (error) {
      throw new AdminUsageError(`${flag} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    }
  };
  const token = sources.tokenFile === undefined ? sources.token : read("--token-file", sources.tokenFile).trim();
  return {
    ...(token === undefined ? {} : { token }),
    ...(sources.caFile === undefined ? {} : { ca: read("--ca-file", sources.caFile) }),
  };
}

/** Runs `nereus admin` with `argv` (the arguments after `admin`); resolves with the exit code. */
export async function runAdminCommand(argv: readonly string[], output: AdminOutput): Promise<number> {
  let invocation: AdminInvocation;
  let credentials: AdminCredentials = {};
  try {
    invocation = parseAdminCommandLine(argv);
    if (invocation.kind === "run") credentials = loadCredentials(invocation.credentials);
  } catch (error) {
    if (!(error instanceof AdminUsageError)) throw error;
    output.stderr(`nereus admin: ${error.message} (see nereus admin --help)\n`);
    return 2;
  }
  if (invocation.kind === "help") {
    output.stdout(`${adminUsage(invocation.subcommand)}\n`);
    return 0;
  }
  try {
    const text = await answer(invocation, credentials);
    if (text === undefined) {
      const what = invocation.subcommand === "topics" ? "topic" : "group";
      output.stderr(`nereus admin: no ${what} ${JSON.stringify(invocation.describe)}\n`);
      return 1;
    }
    output.stdout(`${text}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof AdminRequestError)) throw error;
    output.stderr(`nereus admin: ${error.message}\n`);
    return 1;
  }
}
