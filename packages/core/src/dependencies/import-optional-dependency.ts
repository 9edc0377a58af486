// Loads a package that only one backend of a provider needs (a database driver, a cloud SDK) when that backend is
// opened. Such a package is an optional peer dependency of the provider, so importing the provider never fails for
// its absence; opening the backend without it fails with one clear error that names the package to install. The
// provider passes the `import()` itself, so the specifier resolves from the provider's package, not from core's.
// Caches nothing (Node's module cache does) and installs nothing.
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** A package one backend needs, and how to load it. */
export interface OptionalDependency<T> {
  /** The npm package, as a user installs it (`better-sqlite3`). */
  readonly packageName: string;
  /** The version range the provider declares for it (its `peerDependencies` entry), for the install hint. */
  readonly versionRange: string;
  /** What needs it, for the message (`createSqliteMetadataStore of @nereus/metadata`). */
  readonly neededBy: string;
  /** `() => import("better-sqlite3")`, written in the provider's own module. */
  readonly load: () => Promise<T>;
}

/**
 * Runs `dependency.load()`. Throws a non-retryable `NereusError(DEPENDENCY_UNAVAILABLE)` naming the package and the
 * install command when the package is not installed, or when it is installed and fails to load (a native addon
 * built for another Node.js, a missing dependency of its own); the loader's error is the `cause`.
 */
export async function importOptionalDependency<T>(dependency: OptionalDependency<T>): Promise<T> {
  try {
    return await dependency.load();
  } catch (error) {
    const { packageName, versionRange, neededBy } = dependency;
    const install = `npm install ${packageName}@"${versionRange}"`;
    const details = { package: packageName, versionRange };
    if (namesMissingPackage(error, packageName)) {
      throw new NereusError(
        ErrorCode.DEPENDENCY_UNAVAILABLE,
        `${neededBy} needs the package ${packageName}, which is not installed; install it with: ${install}`,
        { retryable: false, cause: error, details },
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new NereusError(
      ErrorCode.DEPENDENCY_UNAVAILABLE,
      `${neededBy} needs the package ${packageName}, which failed to load (${reason}); reinstall it for this ` +
        `Node.js ${process.version} with: ${install}`,
      { retryable: false, cause: error, details },
    );
  }
}

/** Whether `error` is Node's "module not found" for `packageName` itself (not for a package it imports). */
function namesMissingPackage(error: unknown, packageName: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  return error.message.includes(`'${packageName}'`) || error.message.includes(`"${packageName}"`);
}
