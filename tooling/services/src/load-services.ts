// Test-side entry point: the services a test run shares, found through the NEREUS_SERVICES_FILE contract.
import { ServiceStartError } from "./errors.js";
import { RunningServices } from "./running-services.js";

/** Environment variable naming the state file of the shared services. */
export const SERVICES_FILE_ENV = "NEREUS_SERVICES_FILE";

/**
 * Loads the shared services from the state file named by `NEREUS_SERVICES_FILE` (set by `npm test`, or by the
 * vitest global setup when a package's tests run alone), or from `file` when given.
 * @throws ServiceStartError when the variable is unset or the file is not a description.
 */
export function loadServices(file: string | undefined = process.env[SERVICES_FILE_ENV]): RunningServices {
  if (file === undefined || file === "") {
    throw new ServiceStartError(
      "harness",
      `${SERVICES_FILE_ENV} is not set: run the tests with the vitest services preset (services: true) or after \`nereus-services start --state <file>\``,
    );
  }
  return RunningServices.fromStateFile(file);
}
