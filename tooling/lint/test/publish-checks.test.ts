// The publishing checks of the workspace lint on fixture workspaces: the base fixture's published packages carry
// every field docs/releasing.md asks for, and each broken rule is reported on the right package; the Dockerfile
// check on small build contexts.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { checkDockerfile } from "../src/check-dockerfile.js";
import { checkPublishManifests } from "../src/check-publish-manifests.js";
import { formatViolations } from "../src/report.js";
import { loadWorkspace } from "../src/workspace.js";
import { createFixtureWorkspace, manifest, removeFixtureWorkspace, type FixtureFiles } from "./fixture-workspace.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) removeFixtureWorkspace(root);
});

function fixture(overrides: FixtureFiles, base?: FixtureFiles): string {
  const root = createFixtureWorkspace(overrides, base);
  roots.push(root);
  return root;
}

function publishFindings(root: string): string[] {
  const text = formatViolations(checkPublishManifests(loadWorkspace(root)), root);
  return text === "" ? [] : text.split("\n").map((line) => line.replace(/:\d+ /, " "));
}

/** The fixture's cursor manifest with `edit` applied. */
function cursorManifest(edit: (manifest: Record<string, unknown>) => void): string {
  const parsed = JSON.parse(manifest("@nereus/cursor", { dependencies: ["@nereus/core"] })) as Record<string, unknown>;
  edit(parsed);
  return JSON.stringify(parsed, null, 2);
}

describe("the publishing fields", () => {
  test("the base fixture is clean", () => {
    expect(publishFindings(fixture({}))).toEqual([]);
  });

  test("an exact workspace range, a private dependency, a missing repository and a source condition are reported", () => {
    const root = fixture({
      "packages/cursor/package.json": cursorManifest((parsed) => {
        parsed["dependencies"] = { "@nereus/core": "workspace:*", "@nereus/test-services": "workspace:^" };
        delete parsed["repository"];
        (parsed["publishConfig"] as Record<string, unknown>)["exports"] = parsed["exports"];
      }),
    });
    expect(publishFindings(root)).toEqual([
      'packages/cursor/package.json publish/repository needs "repository": { "type": "git", "url", "directory" }',
      expect.stringMatching(
        /^packages\/cursor\/package\.json publish\/exports publishConfig\.exports must be exports without the "@nereus\/source" condition: /,
      ),
      'packages/cursor/package.json publish/workspace-range @nereus/core: "workspace:*" publishes as an exact or open version; use "workspace:^" (a caret range)',
      "packages/cursor/package.json publish/private-dependency @nereus/test-services is private: a published package cannot need it",
    ]);
  });

  test("LICENSE missing or different beside a package, loose files and a wrong directory are reported", () => {
    const root = fixture({
      "packages/kafka/LICENSE": undefined,
      "packages/pulsar/LICENSE": "MIT\n",
      "packages/cursor/package.json": cursorManifest((parsed) => {
        parsed["files"] = ["dist", "src", "README.md", "LICENSE"];
        (parsed["repository"] as Record<string, unknown>)["directory"] = "packages/elsewhere";
      }),
    });
    expect(publishFindings(root)).toEqual([
      'packages/cursor/package.json publish/repository repository.directory must be "packages/cursor"',
      'packages/cursor/package.json publish/files "files" may list only dist, bin, docs, README.md, LICENSE, CHANGELOG.md; got src',
      'packages/cursor/package.json publish/files "files" must list CHANGELOG.md',
      "packages/kafka/package.json publish/license LICENSE is missing beside package.json (copy the root LICENSE)",
      "packages/pulsar/package.json publish/license LICENSE differs from the root LICENSE (copy it again)",
    ]);
  });

  test("a published workspace without a root LICENSE is reported", () => {
    expect(publishFindings(fixture({ LICENSE: undefined }))).toEqual([
      "LICENSE publish/license the repository has no LICENSE file at its root",
    ]);
  });
});

describe("the Dockerfile", () => {
  const CONTEXT: FixtureFiles = {
    "app/package.json": "{}\n",
    "app/dist/main.js": "\n",
    ".dockerignore": "**/dist\n.git\n",
  };

  function findings(dockerfile: string): string[] {
    const root = fixture({ Dockerfile: dockerfile }, CONTEXT);
    return checkDockerfile(root).map((violation) => `${String(violation.line)} ${violation.rule} ${violation.message}`);
  }

  test("a two-stage build that copies existing files and runs as a user is clean", () => {
    expect(
      findings(
        "FROM node:20-bookworm-slim AS build\nCOPY app/package.json ./\nRUN echo built\n" +
          'FROM node:20-bookworm-slim\nCOPY --from=build /app /app\nEXPOSE 9092\nUSER node\nENTRYPOINT ["node"]\n',
      ),
    ).toEqual([]);
  });

  test("a missing or ignored source, an unknown stage, an unknown instruction and root are reported", () => {
    expect(
      findings(
        "FROM node:20 AS build\nCOPY app/missing.txt /x\nCOPY app/dist /y\n" +
          "FROM node:20\nCOPY --from=nowhere /a /b\nRUNN echo\n",
      ),
    ).toEqual([
      "6 dockerfile/validate Unknown instruction: RUNN",
      "2 dockerfile/copy-source COPY app/missing.txt: not in the repository",
      "3 dockerfile/copy-source COPY app/dist: left out of the build context by .dockerignore",
      "5 dockerfile/stage COPY --from=nowhere: no earlier stage",
      "4 dockerfile/user the last stage must switch to a user other than root (USER)",
    ]);
  });

  test("no Dockerfile, nothing to check", () => {
    expect(checkDockerfile(fixture({}, CONTEXT))).toEqual([]);
    expect(fs.existsSync(path.join(roots.at(-1)!, "Dockerfile"))).toBe(false);
  });
});
