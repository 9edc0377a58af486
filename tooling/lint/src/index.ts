// Public surface of @nereus/lint: the ESLint preset, the workspace import checker and its rule table, and the CLI.
export {
  canonicalFolderCycle,
  checkFolderCycles,
  folderOf,
  type FileImportEdge,
  type FolderCycleInput,
  type FolderCycleResult,
} from "./check-folder-cycles.js";
export { checkImports, fileKind, ruleFor, type CheckImportsOptions, type CheckImportsResult } from "./check-imports.js";
export { main, type CliOutput } from "./cli.js";
export { createEslintConfig } from "./eslint-config.js";
export { extractImports, type ImportKind, type ImportRecord } from "./extract-imports.js";
export { findElementaryCycles, type ElementaryCycles } from "./elementary-cycles.js";
export { findCycles } from "./find-cycles.js";
export {
  countErrors,
  formatViolation,
  formatViolations,
  sortViolations,
  type Severity,
  type Violation,
} from "./report.js";
export {
  ALLOWED_FOLDER_CYCLES,
  LIBRARY_ROLES,
  PACKAGE_RULES,
  PROTOCOL_CODEC_MAY_IMPORT,
  PROTOCOL_LIBRARIES,
  RULES_BY_FOLDER,
  type PackageRole,
  type PackageRule,
} from "./rules.js";
export { runEslint, type RunEslintOptions, type RunEslintResult } from "./run-eslint.js";
export { runPublint, type PublintOutcome } from "./run-publint.js";
export { findWorkspaceRoot, loadWorkspace, type Workspace, type WorkspacePackage } from "./workspace.js";
