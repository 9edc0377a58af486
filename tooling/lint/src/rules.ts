// The import rules of docs/architecture.md §2 as data: which workspace package may import which, which external
// libraries are protocol vocabulary, which folder of an adapter is a sans-IO codec. The checker
// (check-imports.ts) interprets this table; it holds no package names of its own. A new package under packages/
// must be added here before lint passes.

/** What a workspace package is, which decides the direction its imports may point. */
export type PackageRole = "core" | "provider" | "cursor" | "adapter" | "app" | "tooling" | "unlisted";

export interface PackageRule {
  readonly role: PackageRole;
  /**
   * Workspace packages that production code (`src/**`) may import, besides itself. `"all-libraries"` means every
   * package of role core/provider/cursor/adapter. Test files may in addition import dev tooling and the
   * `./testing` subpaths of these packages.
   */
  readonly mayImport: readonly string[] | "all-libraries";
  /** Why, in one line; printed with every direction violation. */
  readonly reason: string;
  /** External libraries no file of the package may import (exact name, or a prefix ending in "/"). */
  readonly forbiddenLibraries: readonly string[];
  /**
   * Folder (relative to the package root) holding the sans-IO protocol codec. Its non-test files import only
   * relative files inside the folder and {@link PROTOCOL_CODEC_MAY_IMPORT}.
   */
  readonly protocolDir?: string;
}

/** Kafka and Pulsar client libraries: protocol vocabulary that the storage layer must never see. */
export const PROTOCOL_LIBRARIES: readonly string[] = [
  "kafkajs",
  "@kafkajs/",
  "@platformatic/kafka",
  "@confluentinc/kafka-javascript",
  "node-rdkafka",
  "kafka-node",
  "pulsar-flex",
  "pulsar-client",
];

/**
 * The only non-relative imports a protocol codec may use (exact specifiers): core's byte helpers (ByteReader,
 * ByteWriter, CRC32C) and the protobuf wire primitives (varints, length-delimited fields; no reflection, no I/O).
 */
export const PROTOCOL_CODEC_MAY_IMPORT: readonly string[] = ["@nereus/core", "@bufbuild/protobuf/wire"];

const PROVIDER_REASON = "providers import @nereus/core only: never each other, never cursor or adapters";
const ADAPTER_REASON = "adapters import @nereus/core and @nereus/cursor only; the broker injects concrete providers";

export const PACKAGE_RULES: Readonly<Record<string, PackageRule>> = {
  "@nereus/core": {
    role: "core",
    mayImport: [],
    reason: "core imports no other workspace package",
    forbiddenLibraries: PROTOCOL_LIBRARIES,
  },
  "@nereus/metadata": {
    role: "provider",
    mayImport: ["@nereus/core"],
    reason: PROVIDER_REASON,
    forbiddenLibraries: PROTOCOL_LIBRARIES,
  },
  "@nereus/object-wal": {
    role: "provider",
    mayImport: ["@nereus/core"],
    reason: PROVIDER_REASON,
    forbiddenLibraries: PROTOCOL_LIBRARIES,
  },
  "@nereus/bookkeeper": {
    role: "provider",
    mayImport: ["@nereus/core"],
    reason: PROVIDER_REASON,
    forbiddenLibraries: PROTOCOL_LIBRARIES,
  },
  "@nereus/cursor": {
    role: "cursor",
    mayImport: ["@nereus/core"],
    reason: "cursor imports @nereus/core only",
    forbiddenLibraries: PROTOCOL_LIBRARIES,
  },
  "@nereus/kafka": {
    role: "adapter",
    mayImport: ["@nereus/core", "@nereus/cursor"],
    reason: ADAPTER_REASON,
    forbiddenLibraries: [],
    protocolDir: "src/protocol",
  },
  "@nereus/pulsar": {
    role: "adapter",
    mayImport: ["@nereus/core", "@nereus/cursor"],
    reason: ADAPTER_REASON,
    forbiddenLibraries: [],
    protocolDir: "src/protocol",
  },
  "@nereus/broker": {
    role: "app",
    mayImport: "all-libraries",
    reason: "the broker is the composition root; it imports every library but no other app and no dev tooling",
    forbiddenLibraries: [],
  },
};

/**
 * Rules for packages not named in {@link PACKAGE_RULES}, by the workspace folder they live in. A package under
 * any other folder (packages/) has no default: it is reported as `unlisted-package`.
 */
export const RULES_BY_FOLDER: Readonly<Record<string, PackageRule>> = {
  apps: {
    role: "app",
    mayImport: "all-libraries",
    reason: "apps import every library but no other app and no dev tooling",
    forbiddenLibraries: [],
  },
  tooling: {
    role: "tooling",
    mayImport: "all-libraries",
    reason: "dev tooling imports libraries and other tooling, never apps",
    forbiddenLibraries: [],
  },
};

/**
 * Stand-in for a package found in neither table (a new folder under packages/): it is reported as
 * `unlisted-package` and otherwise checked like a library that may import any library.
 */
export const UNLISTED_RULE: PackageRule = {
  role: "unlisted",
  mayImport: "all-libraries",
  reason: "the package is not in tooling/lint/src/rules.ts",
  forbiddenLibraries: [],
};

/** Roles whose packages are libraries (imported by others); apps and tooling are not. */
export const LIBRARY_ROLES: ReadonlySet<PackageRole> = new Set(["core", "provider", "cursor", "adapter", "unlisted"]);

/** Subpath of a package that ships fakes and conformance suites; production code must not import it. */
export const TESTING_SUBPATH = "./testing";
/** Folder of a package whose files build its `./testing` subpath (they may import other packages' `./testing`). */
export const TESTING_SOURCE_DIR = "src/testing";

/**
 * Dev-only files (relative to the package root), which may import dev tooling and `./testing` subpaths:
 * `*.test.*` / `*.spec.*` anywhere, everything under test/, bench/ and scripts/, and top-level files
 * (vitest.config.ts, tsup.config.ts).
 */
export const DEV_FILE_PATTERN = /(^|\/)[^/]+\.(test|spec)\.[cm]?[jt]sx?$|^(test|bench|scripts)\/|^[^/]+$/;

/** Folders scanned in every package; top-level script files are scanned as well. */
export const SCANNED_DIRS: readonly string[] = ["src", "test", "bench", "bin", "scripts"];
export const SOURCE_FILE_PATTERN = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
export const SKIPPED_DIR_NAMES: ReadonlySet<string> = new Set(["node_modules", "dist", "coverage"]);

/**
 * Folder cycles tolerated, by package: each entry is one elementary cycle between folders of `src/` (see
 * check-folder-cycles.ts), in any rotation. Empty: no package has a folder cycle, and a new one is untangled (move
 * the shared type or helper to the folder that owns it, or to a lower one) rather than listed here. Any cycle not
 * listed fails lint, and the workspace test fails while an entry matches no cycle.
 */
export const ALLOWED_FOLDER_CYCLES: Readonly<Record<string, readonly string[]>> = {};
